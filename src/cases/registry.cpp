#include "granular/cases/models.hpp"

namespace granular::cases {

const std::vector<Model>& models() {
  static const std::vector<Model> all = {
      {"packing_ensemble", load_packing_ensemble},
      {"collision", load_collision},
      {"billiard", load_billiard},
      {"dimer", load_dimer},
      {"pendulum", load_pendulum},
      {"prism", load_prism},
  };
  return all;
}

}  // namespace granular::cases
