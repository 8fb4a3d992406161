#include <memory>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "granular/md/backend.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {
namespace {

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(int threads) : threads_(threads) {}

  void initialize(const EnsembleModel& m, EnsembleState& s) override {
    const EnsembleView v = make_view(m, s);
    const double t = s.time(m);
    const int n = m.n_packings();
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count())
    for (int p = 0; p < n; ++p) prime_packing(v, p, t);
  }

  void advance(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) override {
    const EnsembleView v = make_view(m, s);
    const int n = m.n_packings();
    const std::int64_t step0 = s.step;
    const double t0 = s.t0;
    const double dt = m.dt;
    // each packing runs all its steps on one thread: its data stays in cache. Packings are
    // handed out from `threads` far-apart segments in turn, so that two threads rarely step
    // neighbouring packings at once: those share cache lines at their boundary, and writing
    // them from two cores at every step halved the speed of 60-disk packings.
    const int threads = thread_count();
    const int segment = (n + threads - 1) / threads;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int q = 0; q < segment * threads; ++q) {
      const int p = (q % threads) * segment + q / threads;
      if (p >= n) continue;
      for (std::int64_t k = 1; k <= steps && v.status[p] == status_ok; ++k) {
        step_packing(v, p, step0 + k, t0 + static_cast<double>(step0 + k) * dt);
      }
    }
    s.step += steps;
  }

  std::string name() const override { return "cpu"; }

 private:
  int thread_count() const {
#ifdef _OPENMP
    return threads_ > 0 ? threads_ : omp_get_max_threads();
#else
    return 1;
#endif
  }
  int threads_;
};

}  // namespace
}  // namespace granular::md

namespace granular::md {

std::unique_ptr<Backend> make_cpu_backend(int threads) {
  return std::make_unique<CpuBackend>(threads);
}
}  // namespace granular::md
