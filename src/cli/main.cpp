// The `granular` command: run or validate a JSON case. Exit codes: 0 success, 2 bad input
// (case, option, command, nothing to resume; nothing is created), 1 unexpected failure or an
// interrupt during a run.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <variant>
#include <vector>

#include "granular/constants.hpp"
#include "granular/contact_law.hpp"
#include "granular/io/case.hpp"
#include "granular/io/file.hpp"
#include "granular/io/output.hpp"
#include "granular/io/run_case.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/checkpoint.hpp"

namespace {

namespace fs = std::filesystem;
using granular::io::CaseError;
using granular::io::LoadedCase;

constexpr int kSuccess = 0;
constexpr int kRunFailure = 1;
constexpr int kBadInput = 2;

const char* const kUsage =
    "usage: granular run CASE.json [--out DIR] [--threads N] [--backend cpu|cuda] [--resume]\n"
    "                    [--checkpoint-interval S] [--set /json/pointer=value]...\n"
    "       granular validate CASE.json [--set /json/pointer=value]...\n"
    "       granular --help | --version\n";

const char* const kHelp =
    "\n"
    "commands:\n"
    "  run        validate CASE.json, then run it and write its outputs into DIR\n"
    "  validate   check CASE.json and print the quantities derived from it (t_c, e_n, dt, ...)\n"
    "\n"
    "options:\n"
    "  --out DIR               output folder (default: out/<case file stem>)\n"
    "  --threads N             worker threads, N >= 1 (default: the OpenMP default)\n"
    "  --backend cpu|cuda      where packing ensembles run (default: cpu); cuda needs a device\n"
    "  --resume                continue the packing ensemble run in DIR from DIR/checkpoint.bin\n"
    "                          (same case and backend); without it a checkpoint is overwritten\n"
    "  --checkpoint-interval S seconds of wall time between checkpoints of a packing ensemble\n"
    "                          run (default: 600; 0: none). Ctrl-C or SIGTERM also writes one\n"
    "                          and stops; the checkpoint is removed once summary.json is written\n"
    "  --set /pointer=value    override one key of the case before validation; value is JSON\n"
    "                          when it parses, else a string; null removes the key (repeatable)\n"
    "\n"
    "exit codes: 0 success, 1 failure or interrupt during a run, 2 bad input (nothing is\n"
    "            created)\n"
    "case files: docs/cases.md\n";

// A bad command line: the message, then the usage line.
struct UsageError {
  std::string message;
};

struct Options {
  std::string command;  // "run" or "validate"
  std::string case_path;
  std::string out;  // empty: out/<stem>
  int threads = 0;  // 0: OpenMP default
  std::string backend = "cpu";
  bool resume = false;                 // continue from DIR/checkpoint.bin
  double checkpoint_interval = 600.0;  // [s] of wall time; 0: no checkpoints
  std::vector<std::string> sets;
};

// SIGINT and SIGTERM during an ensemble run: the first asks the run to stop, which it does
// within a slice (about half a second) with a checkpoint; a second is answered with a reminder,
// since a scheduler or an impatient user often repeats it while the checkpoint is written; a
// third ends the process at once, without one.
volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_signals = 0;

// write(2) only: nothing else is safe in a signal handler
void say(const char* text) {
  std::size_t n = 0;
  while (text[n] != '\0') ++n;
  const ssize_t ignored = ::write(STDERR_FILENO, text, n);
  static_cast<void>(ignored);
}

extern "C" void request_stop(int signal) {
  const int count = g_signals + 1;
  g_signals = count;
  if (count == 1) {
    g_stop = 1;
    say("\ngranular: stopping: writing a checkpoint (interrupt twice more to quit without one)\n");
  } else if (count == 2) {
    say("\ngranular: still writing the checkpoint; one more interrupt quits without it\n");
  } else {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}

void catch_stop_signals() {
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int parse_threads(const std::string& text) {
  std::size_t used = 0;
  long n = 0;
  try {
    n = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || n < 1 || n > 4096)
    throw UsageError{"--threads: expected an integer from 1 to 4096, got " +
                     granular::io::quoted(text)};
  return static_cast<int>(n);
}

double parse_seconds(const std::string& text) {
  std::size_t used = 0;
  double s = -1.0;
  try {
    s = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(s) || s < 0.0)
    throw UsageError{"--checkpoint-interval: expected seconds >= 0, got " +
                     granular::io::quoted(text)};
  return s;
}

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  o.command = args.at(0);
  if (o.command != "run" && o.command != "validate")
    throw UsageError{"unknown command " + granular::io::quoted(o.command)};
  const bool run = o.command == "run";
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    // "--key value" or "--key=value"
    const auto take = [&](const std::string& key, std::string& value) {
      if (a == key) {
        if (i + 1 >= args.size()) throw UsageError{key + ": missing value"};
        value = args[++i];
        return true;
      }
      if (a.rfind(key + "=", 0) == 0) {
        value = a.substr(key.size() + 1);
        return true;
      }
      return false;
    };
    std::string value;
    if (take("--set", value)) {
      o.sets.push_back(value);
    } else if (run && take("--out", value)) {
      if (value.empty()) throw UsageError{"--out: missing value"};
      o.out = value;
    } else if (run && a == "--resume") {
      o.resume = true;
    } else if (run && take("--checkpoint-interval", value)) {
      o.checkpoint_interval = parse_seconds(value);
    } else if (run && take("--threads", value)) {
      o.threads = parse_threads(value);
    } else if (run && take("--backend", value)) {
      if (value != "cpu" && value != "cuda") {
        throw UsageError{"--backend: expected cpu or cuda, got " + granular::io::quoted(value)};
      }
      if (value == "cuda" && !granular::md::cuda_device_available()) {
        throw UsageError{"--backend cuda: no CUDA device is available: " +
                         granular::md::cuda_unavailable_reason()};
      }
      o.backend = value;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError{"unknown option " + granular::io::quoted(a) + " for " + o.command};
    } else if (o.case_path.empty()) {
      o.case_path = a;
    } else {
      throw UsageError{"unexpected argument " + granular::io::quoted(a) +
                       " (one case file per call)"};
    }
  }
  if (o.case_path.empty()) throw UsageError{o.command + ": missing CASE.json"};
  return o;
}

// One line per contact type and mass: m_eff, damping ratio, e_n, t_c (eqs. 4.55–4.56).
void print_contact(const char* label, const granular::ContactParams& p, double m_eff) {
  const auto r = granular::linear_dashpot_restitution(p.k_n, p.gamma_n, m_eff);
  const double c = p.gamma_n / (2.0 * std::sqrt(p.k_n * m_eff));
  std::cout << "  " << label << "  m_eff = " << granular::io::format_value("%.4g", m_eff)
            << " kg  c = " << granular::io::format_value("%.4g", c)
            << "  e_n = " << granular::io::format_value("%.6g", r.e_n)
            << "  t_c = " << granular::io::format_value("%.4g", r.t_c) << " s\n";
}

const char* scheme_name(granular::md::Integrator i) {
  return i == granular::md::Integrator::gear5 ? "gear5" : "velocity_verlet";
}

void report_ensemble(const granular::md::EnsembleCase& c) {
  const auto& m = c.model;
  const auto& p = m.packings.front();
  const int disks = m.packing_size(0);
  double m_light = m.mass[0], m_heavy = m.mass[0];
  for (int i = 0; i < disks; ++i) {
    m_light = std::min(m_light, m.mass[i]);
    m_heavy = std::max(m_heavy, m.mass[i]);
  }
  std::cout << "packings: " << c.gamma_values.size() << " Γ value(s) × " << c.packings_per_gamma
            << " = " << m.n_packings() << " packings of " << disks << " disks (" << m.n_disks()
            << " disks), box width " << granular::io::format_value("%.4g", p.box_width)
            << " m, g = " << granular::io::format_value("%.4g", p.gravity) << " m/s²\n";

  // contact time scales
  std::cout << "contacts (c = γ_n / (2 √(k_n m_eff)); e_n, t_c from eqs. 4.55–4.56):\n";
  print_contact("disk-disk, smallest pair", p.disk_disk, m_light / 2.0);
  print_contact("disk-disk, largest pair ", p.disk_disk, m_heavy / 2.0);
  print_contact("disk-wall, smallest disk", p.disk_wall, m_light);
  print_contact("disk-wall, largest disk ", p.disk_wall, m_heavy);
  const double t_c =
      granular::io::shortest_collision_time(p.disk_disk, p.disk_wall, m_light, m_heavy);
  const double dt_max = std::min(granular::io::largest_time_step(p.disk_disk, m_light / 2.0),
                                 granular::io::largest_time_step(p.disk_wall, m_light));
  std::cout << "time step: dt = " << granular::io::format_value("%.4g", m.dt) << " s ("
            << scheme_name(m.integrator) << "), " << granular::io::format_value("%.4g", t_c / m.dt)
            << " steps per shortest t_c (" << granular::io::format_value("%.4g", t_c)
            << " s); largest accepted dt " << granular::io::format_value("%.3g", dt_max) << " s\n";

  // drive per Γ
  std::cout << "drive: f = "
            << granular::io::format_value("%.6g", p.drive_omega / (2.0 * granular::pi)) << " Hz\n";
  for (int k = 0; k < static_cast<int>(c.gamma_values.size()); ++k) {
    const auto& pk = m.packings[k * c.packings_per_gamma];
    std::cout << "  Γ = " << granular::io::format_value("%-6.4g", pk.gamma)
              << "  A = " << granular::io::format_value("%.4g", pk.drive_amplitude)
              << " m  peak wall speed A ω = "
              << granular::io::format_value("%.4g", pk.drive_amplitude * pk.drive_omega)
              << " m/s\n";
  }

  // run length
  const auto& s = c.schedule;
  const double total = s.settle_time + s.transient_time + s.measure_time;
  const double steps = std::ceil(total / m.dt);
  std::cout << "run: settle " << granular::io::format_value("%.6g", s.settle_time)
            << " s + transient " << granular::io::format_value("%.6g", s.transient_time)
            << " s + measure " << granular::io::format_value("%.6g", s.measure_time)
            << " s = " << granular::io::format_value("%.6g", total) << " s, sample every "
            << granular::io::format_value("%.6g", s.sample_interval) << " s\n"
            << "total: " << granular::io::format_value("%.6g", steps) << " steps per packing, "
            << granular::io::format_value("%.4g", steps * m.n_disks())
            << " disk-steps over the ensemble\n";
  const granular::md::RunSteps plan = granular::md::plan_run(s, m.dt).steps;
  const double csv = granular::io::ensemble_output_bytes(
      plan, static_cast<int>(c.gamma_values.size()), c.packings_per_gamma, disks);
  // without the cell grids, a few ints per disk
  const double memory = granular::io::ensemble_memory_bytes(m.n_disks(), 0.0, m.neighbor);
  std::cout << "size: about " << granular::io::format_value("%.3g", memory / 1e6)
            << " MB of memory, at most " << granular::io::format_value("%.3g", csv / 1e6)
            << " MB of CSV\n";
}

void report_collision(const granular::md::CollisionCase& c) {
  const bool pair = c.kind == granular::md::CollisionKind::disk_disk;
  const double m_a = c.areal_density * granular::pi * c.radius_a * c.radius_a;
  const double m_eff =
      pair ? granular::effective_mass(m_a, c.areal_density * granular::pi * c.radius_b * c.radius_b)
           : m_a;
  const auto r = granular::linear_dashpot_restitution(c.contact.k_n, c.contact.gamma_n, m_eff);
  const double dt = c.dt > 0.0 ? c.dt : r.t_c / c.steps_per_collision;
  std::cout << "collision: " << (pair ? "disk-disk" : "disk-wall")
            << ", m_a = " << granular::io::format_value("%.4g", m_a) << " kg\n";
  print_contact(pair ? "disk-disk" : "disk-wall", c.contact, m_eff);
  std::cout << "predicted: e_n = " << granular::io::format_value("%.6g", r.e_n)
            << ", t_c = " << granular::io::format_value("%.6g", r.t_c) << " s\n"
            << "time step: dt = " << granular::io::format_value("%.4g", dt) << " s ("
            << scheme_name(c.integrator) << "), " << granular::io::format_value("%.6g", r.t_c / dt)
            << " steps per t_c; largest accepted dt "
            << granular::io::format_value("%.3g", granular::io::largest_time_step(c.contact, m_eff))
            << " s\n";
}

int validate(const Options& o) {
  const LoadedCase lc = granular::io::load_case(o.case_path, o.sets);
  std::cout << o.case_path << ": valid " << lc.model << " case\n";
  for (const std::string& n : lc.notes) std::cout << "note: " << n << "\n";
  if (const auto* e = std::get_if<granular::md::EnsembleCase>(&lc.spec))
    report_ensemble(*e);
  else if (const auto* c = std::get_if<granular::md::CollisionCase>(&lc.spec))
    report_collision(*c);
  else
    std::get<std::shared_ptr<granular::impact::ImpactCase>>(lc.spec)->describe(std::cout);
  return kSuccess;
}

// --resume needs a checkpoint of this case, made on this backend, in the output folder.
void check_resume(const Options& o, const LoadedCase& lc, const fs::path& out) {
  if (!std::holds_alternative<granular::md::EnsembleCase>(lc.spec))
    throw CaseError("", "--resume", "only packing_ensemble runs write checkpoints");
  const fs::path path = granular::io::checkpoint_path(out);
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw CaseError(path.string(), "", "no checkpoint to resume from (run without --resume)");
  granular::md::CheckpointHeader h;
  try {
    h = granular::md::read_checkpoint_header(path);
  } catch (const std::runtime_error& e) {
    throw CaseError("", "", e.what());
  }
  if (h.fingerprint != granular::io::case_fingerprint(lc.echo))
    throw CaseError(path.string(), "",
                    "made by a different case (its case echo differs; run without --resume to "
                    "start afresh)");
  if (h.backend != o.backend)
    throw CaseError(path.string(), "",
                    "made by the " + h.backend + " backend; resume with --backend " + h.backend);
}

int run(const Options& o) {
  // everything is checked before anything is created
  const LoadedCase lc = granular::io::load_case(o.case_path, o.sets);
  const fs::path out =
      o.out.empty() ? fs::path("out") / fs::path(o.case_path).stem() : fs::path(o.out);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw CaseError("", "--out " + granular::io::excerpt(out.string()),
                    "exists and is not a directory");
  if (o.resume) check_resume(o, lc, out);
  for (const std::string& n : lc.notes) std::cerr << "note: " << n << "\n";

  // a folder that cannot take the outputs is found now, not after hours of computing
  try {
    granular::io::check_writable_folder(out);
  } catch (const granular::io::FileError& e) {
    throw CaseError("", "", e.what());
  }
  if (const auto* e = std::get_if<granular::md::EnsembleCase>(&lc.spec)) {
    // an interrupt stops the run within a slice with a checkpoint, so days of work survive
    granular::io::EnsembleRunControl control;
    control.resume = o.resume;
    control.checkpoint_interval = o.checkpoint_interval;
    control.stop = [] { return g_stop != 0; };
    catch_stop_signals();
    bool complete = false;
    try {
      complete = granular::io::run_ensemble_case(*e, lc.echo, out, o.backend, o.threads, std::cout,
                                                 std::cerr, control);
    } catch (const granular::io::FileError& failed) {
      // a full or vanished disk: what was checkpointed before is still there to resume
      const fs::path checkpoint = granular::io::checkpoint_path(out);
      throw std::runtime_error(std::string(failed.what()) +
                               (fs::exists(checkpoint, ec)
                                    ? "; the last checkpoint is " + checkpoint.string() +
                                          ": make room, then repeat the command with --resume"
                                    : ""));
    }
    if (!complete) {
      std::cerr << "granular: run interrupted; checkpoint in "
                << granular::io::checkpoint_path(out).string()
                << ": repeat the command with --resume to continue\n";
      return kRunFailure;
    }
  } else if (const auto* c = std::get_if<granular::md::CollisionCase>(&lc.spec)) {
    granular::io::run_collision_case(*c, lc.echo, out, std::cout);
  } else {
    std::get<std::shared_ptr<granular::impact::ImpactCase>>(lc.spec)->run(lc.echo, out, std::cout);
  }
  std::cout << "outputs in " << out.string() << "\n";
  return kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage << kHelp;
    return kSuccess;
  }
  if (args[0] == "--version") {
    std::cout << "granular " << GRANULAR_VERSION << "\n";
    return kSuccess;
  }

  // bad input maps to 2, anything else that goes wrong to 1
  Options o;
  try {
    o = parse_options(args);
  } catch (const UsageError& e) {
    std::cerr << "granular: " << granular::io::one_line(e.message) << "\n" << kUsage;
    return kBadInput;
  }
  try {
    return o.command == "run" ? run(o) : validate(o);
  } catch (const CaseError& e) {
    std::cerr << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "granular: " << o.command << " failed: " << granular::io::one_line(e.what())
              << "\n";
    return kRunFailure;
  }
}
