#include "ensemble_binding.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "granular/cases/case.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/frame.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/reach.hpp"

namespace nb = nanobind;

namespace granular::python {

namespace {

using io::CaseError;

// A packing ensemble advanced by the caller: md::run_ensemble's pieces (build_ensemble_state,
// Backend::advance_resident, sample_rotation, packing_results) without its schedule. Steps
// split in any way give bitwise the same state, so a protocol that follows the case's schedule
// reproduces the CLI's run.
class Ensemble {
 public:
  // A fresh ensemble (checkpoint empty) or the one saved by checkpoint(path).
  Ensemble(const cases::LoadedCase& lc, const std::string& backend, int threads,
           const std::string& checkpoint) {
    const auto* ensemble = dynamic_cast<const cases::PackingEnsemble*>(lc.spec.get());
    if (!ensemble)
      throw CaseError(lc.path, "/model",
                      "granular.Ensemble steps packing_ensemble cases; this is " + lc.model);
    if (ensemble->event_driven())
      throw CaseError(lc.path, "/method",
                      "granular.Ensemble steps the MD method; \"ed\" runs with granular.run");
    cases::RunContext ctx;
    ctx.case_echo = lc.echo;
    ctx.request.backend = backend;
    ctx.request.threads = threads;
    ensemble->check_run(ctx);  // the CLI's checks of the backend
    c_ = ensemble->ensemble();
    fingerprint_ = "granular.Ensemble " + cases::case_fingerprint(lc.echo);
    backend_ = backend == "cuda" ? md::make_cuda_backend() : md::make_cpu_backend(threads);
    const auto& m = c_.model;
    if (checkpoint.empty()) {
      nb::gil_scoped_release released;
      s_ = md::build_ensemble_state(c_, *backend_);
      rotation_.assign(m.n_disks(), md::RotationStats{});
    } else {
      // the drive as it was (set_gamma), then the state, which must be of this case
      const io::CheckpointHeader saved = io::read_checkpoint_header(checkpoint);
      if (saved.fingerprint == fingerprint_ &&
          saved.gammas.size() == static_cast<std::size_t>(m.n_packings()))
        for (int q = 0; q < m.n_packings(); ++q) drive(q, saved.gammas[q]);
      io::EnsembleCheckpoint k = io::read_checkpoint(checkpoint, m, fingerprint_);
      // the state as it was, primed already: advance continues it as it is
      s_ = std::move(k.point.state);
      rotation_ = std::move(k.point.rotation);
    }
  }

  // Advances every healthy packing by `steps` steps, the GIL released, in slices that look at
  // Python's signals (Ctrl-C raises KeyboardInterrupt between slices; the state stays whole).
  void advance(std::int64_t steps) {
    if (steps < 0) throw CaseError("", "advance", "steps must be >= 0");
    using Clock = std::chrono::steady_clock;
    std::int64_t slice = 1;
    while (steps > 0) {
      const std::int64_t n = std::min(slice, steps);
      const Clock::time_point start = Clock::now();
      {
        nb::gil_scoped_release released;
        backend_->advance_resident(c_.model, s_, n);
        backend_->download(s_, md::Backend::Download::everything);
      }
      steps -= n;
      if (PyErr_CheckSignals() != 0) throw nb::python_error();
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (seconds < 0.25) slice *= 2;
    }
  }

  // Advances to the step nearest to time t [s].
  void advance_to(double t) {
    const double steps = std::round((t - s_.time(c_.model)) / c_.model.dt);
    if (!std::isfinite(steps) || steps < 0.0)
      throw CaseError(
          "", "advance_to",
          "t is before the ensemble's time " + std::to_string(s_.time(c_.model)) + " s");
    advance(static_cast<std::int64_t>(steps));
  }

  // Γ of packing p (all packings when p < 0): the drive y_b = A sin(ωt) with A = Γg/ω².
  void set_gamma(double gamma, int p) {
    if (!(gamma >= 0.0) || !std::isfinite(md::drive_amplitude(gamma, 1.0, 1.0)))
      throw CaseError("", "set_gamma", "gamma must be a finite number >= 0");
    for (int q = 0; q < c_.model.n_packings(); ++q) {
      if (p < 0 || q == packing(p)) drive(q, gamma);
    }
    backend_->model_changed(s_);
  }

  void sample() { md::sample_rotation(c_.model, s_, rotation_); }
  void clear_samples() { rotation_.assign(c_.model.n_disks(), md::RotationStats{}); }

  // The observables of every disk from the samples so far, as disks.csv has them.
  nb::dict observables() const {
    const std::vector<md::PackingResult> r = md::packing_results(c_, s_, rotation_);
    std::vector<std::int64_t> packing_index, disk;
    std::vector<double> gamma, omega_bar, rho2, sigma_a;
    for (const md::PackingResult& p : r) {
      for (std::size_t i = 0; i < p.omega_bar.size(); ++i) {
        packing_index.push_back(p.index);
        disk.push_back(static_cast<std::int64_t>(i));
        gamma.push_back(p.gamma);
        omega_bar.push_back(p.omega_bar[i]);
        rho2.push_back(p.rho2[i]);
        sigma_a.push_back(p.sigma_a[i]);
      }
    }
    const std::size_t n = omega_bar.size();
    nb::dict d;
    d["packing"] = numpy_copy(packing_index, n);
    d["gamma"] = numpy_copy(gamma, n);
    d["disk"] = numpy_copy(disk, n);
    d["omega_bar"] = numpy_copy(omega_bar, n);
    d["rho2"] = numpy_copy(rho2, n);
    d["sigma_a"] = numpy_copy(sigma_a, n);
    return d;
  }

  // Per-disk arrays of packing p: one column, or two (x, y) when `second` is given.
  NumpyArray<double> columns(int p, const md::EnsembleArray<double>* first,
                             const md::EnsembleArray<double>* second = nullptr,
                             const md::EnsembleArray<double>* third = nullptr) const {
    const int q = packing(p);
    const int begin = c_.model.offset[q], end = c_.model.offset[q + 1];
    const int width = third ? 3 : second ? 2 : 1;
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>((end - begin) * width));
    for (int i = begin; i < end; ++i) {
      out.push_back((*first)[i]);
      if (second) out.push_back((*second)[i]);
      if (third) out.push_back((*third)[i]);
    }
    return numpy_copy(out, static_cast<std::size_t>(end - begin), width > 1 ? width : 0);
  }
  NumpyArray<double> positions(int p) const { return columns(p, &s_.x, &s_.y); }
  NumpyArray<double> velocities(int p) const { return columns(p, &s_.vx, &s_.vy); }
  NumpyArray<double> angles(int p) const { return columns(p, &s_.theta); }
  NumpyArray<double> angular_velocities(int p) const { return columns(p, &s_.omega); }
  NumpyArray<double> radii(int p) const { return columns(p, &c_.model.radius); }
  NumpyArray<double> forces(int p) const { return columns(p, &s_.fx, &s_.fy, &s_.torque); }

  // The open contacts of packing p with their forces (md::packing_frame, as the snapshots).
  nb::dict contacts(int p) const {
    const md::PackingFrame f = md::packing_frame(c_.model, s_, packing(p));
    std::vector<std::int64_t> a, b, wall;
    std::vector<double> normal, tangential, point;
    for (const md::FrameContact& k : f.contacts) {
      a.push_back(k.a);
      b.push_back(k.b);
      wall.push_back(k.wall);
      normal.push_back(k.normal);
      tangential.push_back(k.tangential);
      point.push_back(k.point.x);
      point.push_back(k.point.y);
    }
    const std::size_t n = a.size();
    nb::dict d;
    d["a"] = numpy_copy(a, n);
    d["b"] = numpy_copy(b, n);
    d["wall"] = numpy_copy(wall, n);
    d["normal"] = numpy_copy(normal, n);
    d["tangential"] = numpy_copy(tangential, n);
    d["point"] = numpy_copy(point, n, 2);
    return d;
  }

  nb::dict energy(int p) const {
    const md::PackingEnergy e = md::packing_energy(c_.model, s_, packing(p));
    nb::dict d;
    d["kinetic"] = e.kinetic;
    d["rotational"] = e.rotational;
    d["gravitational"] = e.gravitational;
    d["elastic"] = e.elastic;
    d["skin"] = e.skin;
    d["total"] = e.total();
    d["disk_contacts"] = e.disk_contacts;
    d["wall_contacts"] = e.wall_contacts;
    return d;
  }

  std::string status(int p) const { return md::status_name(s_.status[packing(p)]); }

  // What the packing's drive and gravity can give its disks (md/reach.hpp), which a checkpoint's
  // state is checked against.
  nb::dict reach(int p) const {
    const md::PackingReach r = md::packing_reach(c_.model, packing(p));
    nb::dict d;
    d["speed"] = r.speed;
    d["height"] = r.height;
    d["overlap"] = r.overlap;
    return d;
  }

  // The state, the samples and the drive into `path` (io::write_checkpoint's format);
  // Ensemble(case, checkpoint=path) continues from it, with the Γ set_gamma gave.
  void checkpoint(const std::string& path) const {
    io::CheckpointHeader header;
    header.fingerprint = fingerprint_;
    header.backend = backend_->name();
    header.gammas = gammas();  // the drive as set_gamma left it
    // the fingerprint names granular.Ensemble: `granular run --resume` refuses the file
    header.position.phase = 0;
    header.position.steps_done = s_.step;
    io::write_checkpoint(path, header, s_, rotation_);
  }

  nb::dict schedule() const {
    const md::RunSteps r = md::plan_run(c_.schedule, c_.model.dt).steps;
    nb::dict d;
    d["sample_steps"] = r.sample_steps;
    d["settle_steps"] = r.settle_steps;
    d["transient_steps"] = r.transient_steps;
    d["measure_chunks"] = r.measure_chunks;
    return d;
  }

  std::vector<double> gammas() const {
    std::vector<double> g;
    for (const auto& p : c_.model.packings) g.push_back(p.gamma);
    return g;
  }
  int n_packings() const { return c_.model.n_packings(); }
  int packings_per_gamma() const { return c_.packings_per_gamma; }
  int packing_size(int p) const { return c_.model.packing_size(packing(p)); }
  double dt() const { return c_.model.dt; }
  std::int64_t step() const { return s_.step; }
  double time() const { return s_.time(c_.model); }
  std::string backend() const { return backend_->name(); }

 private:
  int packing(int p) const {
    if (p < 0 || p >= c_.model.n_packings())
      throw nb::index_error(("packing " + std::to_string(p) + " out of range [0, " +
                             std::to_string(c_.model.n_packings()) + ")")
                                .c_str());
    return p;
  }

  // Γ of packing q: the drive y_b = A sin(ωt) with A = Γg/ω².
  void drive(int q, double gamma) {
    md::PackingParams& pp = c_.model.packings[q];
    pp.gamma = gamma;
    pp.drive_amplitude = md::drive_amplitude(gamma, pp.gravity, pp.drive_omega);
  }

  md::EnsembleCase c_;
  std::unique_ptr<md::Backend> backend_;
  md::EnsembleState s_;
  std::vector<md::RotationStats> rotation_;
  std::string fingerprint_;
};

}  // namespace

void bind_ensemble(nb::module_& m) {
  nb::class_<Ensemble>(m, "Ensemble")
      .def(nb::init<const cases::LoadedCase&, const std::string&, int, const std::string&>(),
           nb::arg("case"), nb::arg("backend"), nb::arg("threads"), nb::arg("checkpoint"))
      .def("advance", &Ensemble::advance, nb::arg("steps"))
      .def("advance_to", &Ensemble::advance_to, nb::arg("t"))
      .def("set_gamma", &Ensemble::set_gamma, nb::arg("gamma"), nb::arg("packing"))
      .def("sample", &Ensemble::sample)
      .def("clear_samples", &Ensemble::clear_samples)
      .def("observables", &Ensemble::observables)
      .def("positions", &Ensemble::positions, nb::arg("packing"))
      .def("velocities", &Ensemble::velocities, nb::arg("packing"))
      .def("angles", &Ensemble::angles, nb::arg("packing"))
      .def("angular_velocities", &Ensemble::angular_velocities, nb::arg("packing"))
      .def("radii", &Ensemble::radii, nb::arg("packing"))
      .def("forces", &Ensemble::forces, nb::arg("packing"))
      .def("contacts", &Ensemble::contacts, nb::arg("packing"))
      .def("energy", &Ensemble::energy, nb::arg("packing"))
      .def("status", &Ensemble::status, nb::arg("packing"))
      .def("reach", &Ensemble::reach, nb::arg("packing"))
      .def("checkpoint", &Ensemble::checkpoint, nb::arg("path"))
      .def_prop_ro("schedule", &Ensemble::schedule)
      .def_prop_ro("gammas", &Ensemble::gammas)
      .def_prop_ro("n_packings", &Ensemble::n_packings)
      .def_prop_ro("packings_per_gamma", &Ensemble::packings_per_gamma)
      .def("packing_size", &Ensemble::packing_size, nb::arg("packing"))
      .def_prop_ro("dt", &Ensemble::dt)
      .def_prop_ro("step", &Ensemble::step)
      .def_prop_ro("time", &Ensemble::time)
      .def_prop_ro("backend", &Ensemble::backend);
}

}  // namespace granular::python
