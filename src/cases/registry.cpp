#include "granular/cases/models.hpp"
#include "granular/io/output.hpp"

namespace granular::cases {

const std::vector<Model>& models() {
  static const std::vector<Model> all = {
      {"packing_ensemble", load_packing_ensemble, packing_ensemble_tables},
      {"collision", load_collision, collision_tables},
      {"billiard", load_billiard, billiard_tables},
      {"dimer", load_dimer, dimer_tables},
      {"pendulum", load_pendulum, pendulum_tables},
      {"prism", load_prism, prism_tables},
      {"wedge", load_wedge, wedge_tables},
      {"three_disk", load_three_disk, three_disk_tables},
      {"wedge_md", load_wedge_md, wedge_md_tables},
  };
  return all;
}

nlohmann::json run_summary_head(const std::string& model, const nlohmann::json& case_echo) {
  for (const Model& m : models())
    if (model == m.name) return io::summary_header(model, case_echo, m.tables());
  return io::summary_header(model, case_echo, {});
}

}  // namespace granular::cases
