// Case files: JSON -> a validated model case (docs/cases.md is the reference of every key).
// The top-level "model" selects the schema: "packing_ensemble" (md::EnsembleCase),
// "collision" (md::CollisionCase) or a host impact model (impact::impact_models()). Bad input
// throws CaseError with a one-line message
//   cases/x.json: /drive/gamma: must be >= 0
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/case.hpp is host-only"
#endif

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/impact/impact_case.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/md/collision.hpp"
#include "granular/md/ensemble_case.hpp"

namespace granular::io {

struct LoadedCase {
  std::string path;   // the case file as given
  std::string model;  // value of "model": "packing_ensemble", "collision" or an impact model
  std::variant<md::EnsembleCase, md::CollisionCase, std::shared_ptr<impact::ImpactCase>> spec;
  nlohmann::json echo;             // the case as it will run: overrides applied, defaults filled
  std::vector<std::string> notes;  // remarks worth showing the user (e.g. g = 0 gives A = 0)
};

// Reads, overrides and validates a case. Each override is "/json/pointer=value" (the text of
// one --set): value is parsed as JSON when it parses, else taken as a string; null removes the
// key. Overrides are applied in order before validation.
LoadedCase load_case(const std::string& path, const std::vector<std::string>& overrides = {});

// The same from a parsed document; `file` names it in messages.
LoadedCase load_case_json(nlohmann::json doc, const std::string& file,
                          const std::vector<std::string>& overrides = {});

// Applies one "/json/pointer=value" override to `doc` (file names doc in messages).
void apply_override(nlohmann::json& doc, const std::string& override_text, const std::string& file);

// Memory an ensemble of `disks` disks and `cells` neighbor cells holds while it runs [bytes]:
// the loader refuses ensembles larger than this machine's memory; `validate` prints it.
double ensemble_memory_bytes(double disks, double cells, const md::NeighborParams& neighbor);

// Seed of packing r of an ensemble (splitmix64 of the case seed, then of r): the same for every
// Γ, so packing r of a single-Γ case equals packing r of a sweep with the same seed.
std::uint64_t packing_seed(std::uint64_t case_seed, std::uint64_t r);

// Drive amplitude A = Γ g / ω² [m] for Γ [-], g [m/s²], ω = 2π f [rad/s].
double drive_amplitude(double gamma, double gravity, double omega);

// Shortest collision duration t_c (eq. 4.55) [s] of an ensemble's contacts: disk–disk at the
// smallest and largest pair m_eff (m/2 of the lightest and heaviest disks), disk–wall at the
// lightest and heaviest disks [kg].
double shortest_collision_time(const ContactParams& disk_disk, const ContactParams& disk_wall,
                               double m_light, double m_heavy);

// Largest accepted time step [s] for one contact type at effective mass m_eff [kg]: ten steps
// per period 2π/rate of its fastest linear mode (fastest_contact_rate).
double largest_time_step(const ContactParams& p, double m_eff);

}  // namespace granular::io
