// granular_bench: times the ensemble MD on a vibrated polydisperse bed and prints one JSON
// record (a line) per run. bench/run_bench.py drives it over sizes, threads and backends and
// compares with LAMMPS on the same bed. Benchmarks never run in the test suite.
//
//   granular_bench --disks N --packings P [--threads T] [--backend cpu|cuda]
//                  [--integrator gear5|velocity_verlet] [--steps S] [--warmup W]
//                  [--gamma G] [--write-lammps FILE] [--cuda-schedule block|warp:N[:TILE]]
//
// The bed: equal thirds of radii 1.5, 2.0, 2.5 cm (ρ = 3.57 kg/m²) in a box of width
// 0.40 m · √(N/60) (the same shape at every size: 6 layers deep at 60 disks, 24 at 1 000, 76 at
// 10 000), the thesis chapter-3 contact
// (k_n = 1e4 N/m, k_t = 7.7e3 N/m, γ_n = 0.1 kg/s, μ = 0.1) on disks and walls, f = 80 Hz,
// dt = t_c/50 of the lightest pair. Warm-up steps settle and start the drive before timing.
// --cuda-schedule picks the CUDA block path's schedule (include/granular/md/cuda_schedule.hpp);
// the record gives the time of one ensemble step, which is one packing's step latency while
// the packings are no more than the device's SMs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/constants.hpp"
#include "granular/contact_law.hpp"
#include "granular/io/provenance.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/cuda_schedule.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/model.hpp"
#include "granular/md/state.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif
#include <unistd.h>

namespace {

using namespace granular;
using namespace granular::md;

struct Options {
  int disks = 60;
  int packings = 1;
  int threads = 1;
  std::string backend = "cpu";
  std::string integrator = "velocity_verlet";
  long long steps = 20000;
  long long warmup = 20000;
  double gamma = 2.0;
  std::string lammps_data;  // write the warmed-up bed of packing 0 here
  CudaSchedule schedule;    // the CUDA block path's
};

Options parse(int argc, char** argv) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (k + 1 >= argc) throw std::invalid_argument("missing value after " + a);
    const std::string v = argv[++k];
    if (a == "--disks")
      o.disks = std::stoi(v);
    else if (a == "--packings")
      o.packings = std::stoi(v);
    else if (a == "--threads")
      o.threads = std::stoi(v);
    else if (a == "--backend")
      o.backend = v;
    else if (a == "--integrator")
      o.integrator = v;
    else if (a == "--steps")
      o.steps = std::stoll(v);
    else if (a == "--warmup")
      o.warmup = std::stoll(v);
    else if (a == "--gamma")
      o.gamma = std::stod(v);
    else if (a == "--write-lammps")
      o.lammps_data = v;
    else if (a == "--cuda-schedule")
      o.schedule = parse_cuda_schedule(v);
    else
      throw std::invalid_argument("unknown option " + a);
  }
  if (o.disks < 1 || o.packings < 1 || o.steps < 1 || o.warmup < 0) {
    throw std::invalid_argument("sizes and steps must be positive");
  }
  return o;
}

// The radii of an N-disk bed: equal thirds of 1.5, 2.0 and 2.5 cm.
std::vector<double> bed_radii(int n) {
  std::vector<double> r;
  for (int i = 0; i < n; ++i) r.push_back(0.015 + 0.005 * (3 * i / n));
  return r;
}

struct Bed {
  EnsembleModel model;
  EnsembleState state;
};

Bed make_bed(const Options& o) {
  Bed b;
  const std::vector<double> radii = bed_radii(o.disks);
  PackingParams pp{};
  pp.box_width = 0.40 * std::sqrt(o.disks / 60.0);
  pp.gravity = 9.8;
  pp.drive_omega = 2.0 * pi * 80.0;
  pp.drive_amplitude = o.gamma * pp.gravity / (pp.drive_omega * pp.drive_omega);
  pp.gamma = o.gamma;
  pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
  pp.disk_wall = pp.disk_disk;
  for (int p = 0; p < o.packings; ++p) {
    pp.seed = static_cast<std::uint64_t>(p) + 1;
    b.model.add_packing(pp, radii, 3.57);
  }
  // the beds every run starts from
  std::vector<double> x, y;
  build_layouts(b.model, x, y);
  const double m_light = b.model.mass[0];
  b.model.dt = linear_dashpot_restitution(1e4, 0.1, m_light / 2.0).t_c / 50.0;
  b.model.integrator = o.integrator == "gear5" ? Integrator::gear5 : Integrator::velocity_verlet;
  b.model.neighbor.skin = 0.2 * 0.015;
  b.state = make_state(b.model, x, y, 0.0);
  return b;
}

// Open disk–disk contacts (each pair once) and wall contacts of the whole ensemble.
double open_contacts(const EnsembleModel& m, const EnsembleState& s) {
  double n = 0.0;
  for (int i = 0; i < m.n_disks(); ++i) {
    for (int k = 0; k < m.neighbor.max_contacts; ++k) {
      n += s.contacts[i * m.neighbor.max_contacts + k].partner > i ? 1.0 : 0.0;
    }
    for (int w = 0; w < n_walls; ++w) n += s.walls[i * n_walls + w].partner >= 0 ? 1.0 : 0.0;
  }
  return n;
}

// LAMMPS data file (atom_style sphere: id type diameter density x y z) of packing 0, with
// velocities and spins, SI units; density per volume for a disk of unit thickness.
void write_lammps_data(const std::string& path, const Bed& b) {
  const EnsembleModel& m = b.model;
  const EnsembleState& s = b.state;
  const int n = m.packing_size(0);
  double y_top = 0.0;
  for (int i = 0; i < n; ++i) y_top = std::max(y_top, s.y[i] + m.radius[i]);
  std::ofstream f(path);
  f.precision(17);
  f << "granular bed (packing 0) at t = " << s.time(m) << " s\n\n"
    << n << " atoms\n1 atom types\n\n"
    << "0 " << m.packings[0].box_width << " xlo xhi\n"
    << "-0.01 " << 4.0 * y_top + 1.0 << " ylo yhi\n-0.5 0.5 zlo zhi\n\nAtoms # sphere\n\n";
  for (int i = 0; i < n; ++i) {
    f << i + 1 << " 1 " << 2.0 * m.radius[i] << " " << 3.57 << " " << s.x[i] << " " << s.y[i]
      << " 0\n";
  }
  f << "\nVelocities\n\n";
  for (int i = 0; i < n; ++i) {
    f << i + 1 << " " << s.vx[i] << " " << s.vy[i] << " 0 0 0 " << s.omega[i] << "\n";
  }
}

std::string command_output(const char* cmd) {
  std::string out;
  if (FILE* p = popen(cmd, "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "granular_bench: " << e.what() << "\n";
    return 2;
  }
  try {
    Bed b = make_bed(o);
    std::unique_ptr<Backend> backend = o.backend == "cuda"
                                           ? make_cuda_backend(default_large_packing, o.schedule)
                                           : make_cpu_backend(o.threads);
    backend->initialize(b.model, b.state);
    backend->advance(b.model, b.state, o.warmup);
    if (!o.lammps_data.empty()) write_lammps_data(o.lammps_data, b);
    const std::int64_t rebuilds_before = b.state.rebuild_count[0];

    // the open contacts averaged over instants of the timed steps, counted outside the timing:
    // at two instants one packing of 60 disks gave contact counts 20 % apart, which the rate per
    // contact inherited. On the CPU the steps run in 10 timed slices (nothing is lost between
    // them); the CUDA backend's advance brings the whole state down, so there one slice.
    const long long slices = std::min<long long>(o.backend == "cuda" ? 1 : 10, o.steps);
    double contact_sum = open_contacts(b.model, b.state);
    double seconds = 0.0;
    for (long long k = 1, done = 0; k <= slices; ++k) {
      const long long upto = o.steps * k / slices;
      const auto start = std::chrono::steady_clock::now();
      backend->advance(b.model, b.state, upto - done);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      done = upto;
      contact_sum += open_contacts(b.model, b.state);
    }

    const double contacts = contact_sum / static_cast<double>(slices + 1);
    const double particle_steps = static_cast<double>(b.model.n_disks()) * o.steps;
    int healthy = 0;
    for (auto st : b.state.status) healthy += st == status_ok ? 1 : 0;
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    const nlohmann::json record = {
        {"bench", "vibrated_bed"},
        {"disks_per_packing", o.disks},
        {"packings", o.packings},
        {"backend", backend->name()},
        {"cuda_schedule", o.backend == "cuda" ? cuda_schedule_name(o.schedule) : ""},
        {"threads", o.threads},
        {"integrator", o.integrator},
        {"precision", "fp64"},
        {"gamma", o.gamma},
        {"dt", b.model.dt},
        {"steps", o.steps},
        {"warmup_steps", o.warmup},
        {"seconds", seconds},
        {"particle_steps_per_s", particle_steps / seconds},
        {"step_seconds", seconds / static_cast<double>(o.steps)},
        {"contact_steps_per_s", contacts * o.steps / seconds},
        {"contacts_per_disk", contacts / b.model.n_disks()},
        {"rebuilds_per_1000_steps",
         1000.0 * (b.state.rebuild_count[0] - rebuilds_before) / o.steps},
        {"healthy_packings", healthy},
        {"compiler", GRANULAR_BENCH_COMPILER},
        {"flags", GRANULAR_BENCH_FLAGS},
        // the commit built, not the checkout's: a binary built here may run on another machine
        {"git_commit", io::build_info().commit},
        {"host", host},
        {"cpu",
         command_output("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'")}};
    std::cout << record.dump() << std::endl;
    return healthy == o.packings ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "granular_bench: " << e.what() << "\n";
    return 2;
  }
}
