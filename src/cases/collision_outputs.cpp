// Outputs of a "collision" case: a progress table, collision.csv and summary.json.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "granular/cases/collision.hpp"
#include "granular/cases/models.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"
#include "granular/md/ensemble/run.hpp"

namespace granular::cases {

using io::json_number;
using io::summary_header;
using io::write_file_atomic;
using io::write_json_atomic;

namespace {

// JSON has no NaN: a quantity that could not be measured is null.
// One row of the progress table; e_t may be near 0, so its error is absolute.
std::string table_row(const char* name, double measured, double predicted, bool relative) {
  char line[160];
  const double error = relative ? measured / predicted - 1.0 : measured - predicted;
  std::snprintf(line, sizeof line, "  %-30s %14.8g %14.8g %11.3e %s\n", name, measured, predicted,
                error, relative ? "rel" : "abs");
  return line;
}

const io::TableSpec& collision_table() {
  static const io::TableSpec t{"collision.csv",
                               "one row per step of the collision",
                               {{"t", "s", "time"},
                                {"overlap", "m", "δ"},
                                {"normal", "N", "normal force n"},
                                {"u_n", "m/s", "normal relative velocity"},
                                {"u_t", "m/s", "tangential relative contact velocity"}}};
  return t;
}

// The time series during the collision, one row per step (columns of CollisionSample).
std::string collision_csv(const std::vector<md::CollisionSample>& trace) {
  io::TableText out(collision_table());
  for (const md::CollisionSample& s : trace) {
    out.num(s.t).num(s.overlap).num(s.normal).num(s.u_n).num(s.u_t).end_row();
  }
  return out.str();
}

// "ok" when the collision ended and was measured; else the engine's status ("non_finite",
// "too_fast", ...) or "did_not_end" (still in contact after 100 predicted durations).
std::string collision_status(const md::CollisionResult& r) {
  if (r.engine_status != md::status_ok) return md::status_name(r.engine_status);
  return r.ended ? "ok" : "did_not_end";
}

}  // namespace

std::vector<io::TableSpec> collision_tables() { return {collision_table()}; }

void run_collision_case(const md::CollisionCase& c, const RunContext& ctx) {
  const nlohmann::json& case_echo = ctx.case_echo;
  const std::filesystem::path& out_dir = ctx.out_dir;
  const OrQuiet progress_or_quiet(ctx.progress);
  std::ostream& progress = *progress_or_quiet;
  std::vector<md::CollisionSample> trace;
  const md::CollisionResult r = md::run_collision(c, &trace);

  // a short table of measured vs closed form (spec §3.2–3.3)
  const bool wall = c.kind == md::CollisionKind::disk_wall;
  const bool verlet = c.integrator == md::Integrator::velocity_verlet;
  char head[200];
  std::snprintf(head, sizeof head,
                "collision %s, %s: m_eff = %.6g kg, damping ratio c = %.6g, dt = %.6g s\n",
                wall ? "disk-wall" : "disk-disk", verlet ? "velocity_verlet" : "gear5", r.m_eff,
                r.damping_ratio, r.dt);
  progress << head;
  progress << "  quantity                             measured      predicted       error\n";
  progress << table_row("e_n (eq. 4.56)", r.e_n, r.e_n_predicted, true);
  progress << table_row("t_c [s] (eq. 4.55)", r.t_c, r.t_c_predicted, true);
  if (c.u_t != 0.0) {
    progress << table_row(
        r.full_sliding_valid ? "e_t vs full sliding (4.75)" : "e_t vs full sliding (not valid)",
        r.e_t, r.e_t_full_sliding, false);
    progress << table_row("e_t vs sticking limit (4.79)", r.e_t, r.e_t_sticking_limit, false);
  }
  const std::string status = collision_status(r);
  if (status != "ok") progress << "  status " << status << ": measured values are null\n";

  write_file_atomic(out_dir / "collision.csv", collision_csv(trace));

  // the summary last, so that its presence means the run completed
  nlohmann::json summary = run_summary_head("collision", case_echo);
  summary["status"] = status;
  summary["m_eff"] = r.m_eff;
  summary["damping_ratio"] = r.damping_ratio;
  summary["dt"] = r.dt;
  summary["e_n"] = json_number(r.e_n);
  summary["e_t"] = json_number(r.e_t);
  summary["t_c"] = json_number(r.t_c);
  summary["e_n_predicted"] = json_number(r.e_n_predicted);
  summary["t_c_predicted"] = json_number(r.t_c_predicted);
  summary["e_t_full_sliding"] = json_number(r.e_t_full_sliding);
  summary["full_sliding_threshold"] = json_number(r.full_sliding_threshold);
  summary["full_sliding_valid"] = r.full_sliding_valid;
  summary["e_t_sticking_limit"] = json_number(r.e_t_sticking_limit);
  write_json_atomic(out_dir / "summary.json", summary);
}

}  // namespace granular::cases
