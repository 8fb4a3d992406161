// Snapshots of packings (docs/outputs.md, "snapshots/") through the real `granular` binary: the
// case key's checks, the frames' times and packings, positions equal to the run's own θ output,
// and the files read back by real readers: VTK's XML reader (python3-vtk9) and LAMMPS'
// read_dump and read_data (Debian's lammps), installed by scripts/install_deps.sh; gsd's and
// OVITO's Python modules (PyPI's gsd and ovito in .venv, scripts/python_env.sh). A missing
// reader fails the test: run those scripts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_scratch.hpp"
namespace {

namespace fs = std::filesystem;

using granular::test::file_text;

struct Result {
  int code;
  std::string output;
};

Result run(const std::string& args) {
  const std::string cmd = std::string(GRANULAR_CLI) + " " + args + " 2>&1";
  Result r{0, ""};
  FILE* pipe = ::popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Result shell(const std::string& cmd) {
  Result r{0, ""};
  FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("granular_snapshot_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

const std::string demo = std::string(GRANULAR_SOURCE_DIR) + "/cases/demo_sweep.json";
// the demo, short: 0.1 s settling, 0.1 s transient, 0.2 s measured, samples every 0.02 s
const std::string short_demo = demo +
                               " --set /run/settle_time=0.1 --set /run/transient_time=0.1"
                               " --set /run/measure_time=0.2";

// One frame of a LAMMPS dump: its time (when it has one), step and rows by column name.
struct DumpFrame {
  std::string time;
  long long step;
  std::vector<std::string> box;  // the three bounds lines
  std::map<std::string, std::vector<std::string>> columns;
};

std::vector<DumpFrame> read_dump(const fs::path& path) {
  std::istringstream in(file_text(path));
  std::vector<DumpFrame> frames;
  std::string line;
  while (std::getline(in, line)) {
    DumpFrame f;
    if (line == "ITEM: TIME") {
      std::getline(in, f.time);
      std::getline(in, line);
    }
    EXPECT_EQ(line, "ITEM: TIMESTEP");
    std::getline(in, line);
    f.step = std::stoll(line);
    std::getline(in, line);
    EXPECT_EQ(line, "ITEM: NUMBER OF ATOMS");
    std::getline(in, line);
    const int n = std::stoi(line);
    std::getline(in, line);
    EXPECT_EQ(line.rfind("ITEM: BOX BOUNDS ", 0), 0u) << line;  // LAMMPS' own: "ff ff pp" in 2D
    for (int k = 0; k < 3; ++k) {
      std::getline(in, line);
      f.box.push_back(line);
    }
    std::getline(in, line);
    std::istringstream head(line);
    std::string word, item, atoms;
    head >> item >> atoms;
    std::vector<std::string> names;
    while (head >> word) names.push_back(word);
    for (int i = 0; i < n; ++i) {
      std::getline(in, line);
      std::istringstream row(line);
      for (const std::string& name : names) {
        row >> word;
        f.columns[name].push_back(word);
      }
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

// The times a .pvd lists for its frames <stem>_000000.vtp, <stem>_000001.vtp, ... in order.
std::vector<std::string> pvd_times(const fs::path& pvd, const std::string& stem) {
  const std::string text = file_text(pvd);
  const std::regex dataset("<DataSet timestep=\"([^\"]+)\" part=\"0\" file=\"" + stem +
                           "_(\\d{6})\\.vtp\"/>");
  std::vector<std::string> times;
  for (std::sregex_iterator it(text.begin(), text.end(), dataset), end; it != end; ++it) {
    EXPECT_EQ(std::stoi((*it)[2]), static_cast<int>(times.size()));
    times.push_back((*it)[1]);
  }
  return times;
}

TEST(SnapshotCli, BadKeysGiveOneLineErrorsAndWriteNothing) {
  const fs::path out = scratch("bad");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"packing": [0]})", "/snapshots/packing: unknown key"},
      {R"({"packings": [4]})", "/snapshots/packings/0: 4 is not an index of the packings of a Γ"},
      {R"({"packings": [1, 1]})", "/snapshots/packings/1: indices must be ascending"},
      {R"({"gammas": [6]})", "/snapshots/gammas/0: 6 is not an index of gamma_values"},
      {R"({"gammas": "some"})", "/snapshots/gammas: must be \"all\" or a non-empty array"},
      {R"({"formats": ["xyz"]})", "/snapshots/formats/0: unknown format"},
      {R"({"formats": ["vtk", "vtk"]})", "/snapshots/formats/1: \"vtk\" is listed twice"},
      {R"({"formats": []})", "/snapshots/formats: must be a non-empty array"},
      {R"({"interval": 0})", "/snapshots/interval: must be > 0"},
      {R"({"interval": 100})", "/snapshots/interval: 100 s is longer than the run"},
      {R"({"start": 10})", "/snapshots/start: 10 s is after the run's end"},
  };
  for (const auto& [value, message] : bad) {
    const Result r =
        run("run " + short_demo + " --set '/snapshots=" + value + "' --out " + out.string());
    EXPECT_EQ(r.code, 2) << value << "\n" << r.output;
    EXPECT_NE(r.output.find(demo + ": " + message), std::string::npos) << value << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_FALSE(fs::exists(out)) << value;
  }
  // the bytes a run would write are bounded: 24 packings photographed every chunk of 1e5 s
  const Result big = run("validate " + demo +
                         " --set /run/measure_time=1e5 --set "
                         "'/snapshots={\"packings\": \"all\", \"interval\": 0.02}'");
  EXPECT_EQ(big.code, 2) << big.output;
  EXPECT_NE(big.output.find("/snapshots/interval: the snapshots would write about"),
            std::string::npos)
      << big.output;
  // the event-driven method writes none
  const Result ed = run("validate " + demo + " --set '/method=\"ed\"' --set '/snapshots={}'");
  EXPECT_EQ(ed.code, 2);
  EXPECT_NE(ed.output.find("/snapshots: is written by the MD method only"), std::string::npos)
      << ed.output;
}

TEST(SnapshotCli, FramesOfTheChosenPackingsAtTheirTimesWithTheRunsState) {
  const fs::path out = scratch("frames");
  const Result r = run("run " + short_demo +
                       " --set '/snapshots={\"gammas\": [1, 5], \"packings\": [2], "
                       "\"interval\": 0.04, \"start\": 0.1}' --threads 2 --out " +
                       out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  // Γ index 1 and 5, packing 2 of each: packings 6 and 22 (4 per Γ), every format, nothing else
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out / "snapshots"))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::vector<std::string> expected;
  for (int p : {22, 6}) {
    const std::string stem = "packing_" + std::to_string(p);
    expected.push_back(stem + ".lammpstrj");
    expected.push_back(stem + ".pvd");
    expected.push_back(stem + ".gsd");
    for (int k = 0; k < 6; ++k) expected.push_back(stem + "_00000" + std::to_string(k) + ".vtp");
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names, expected);

  // frames at every second chunk end from the one nearest t = 0.1 s: the chunk ends are the
  // times of energy.csv's rows (a phase's last chunk may be short, even one step)
  const nlohmann::json summary = nlohmann::json::parse(file_text(out / "summary.json"));
  const double half_chunk = 0.5 * summary["sample_interval"].get<double>();
  std::vector<std::string> chunk_ends;
  {
    std::istringstream energy(file_text(out / "energy.csv"));
    std::string row;
    std::getline(energy, row);
    while (std::getline(energy, row))
      if (row.find(",6,") != std::string::npos) chunk_ends.push_back(row.substr(0, row.find(',')));
  }
  std::vector<std::string> expected_times;
  for (const std::string& t : chunk_ends) {
    if (std::stod(t) < 0.1 - half_chunk) continue;
    expected_times.push_back(t);
  }
  std::vector<std::string> every_second;
  for (std::size_t k = 0; k < expected_times.size(); k += 2)
    every_second.push_back(expected_times[k]);
  const std::vector<DumpFrame> frames = read_dump(out / "snapshots/packing_6.lammpstrj");
  const std::vector<std::string> times = pvd_times(out / "snapshots/packing_6.pvd", "packing_6");
  EXPECT_EQ(times, every_second);
  ASSERT_EQ(frames.size(), times.size());
  const double dt = summary["dt"];
  for (std::size_t k = 0; k < frames.size(); ++k) {
    EXPECT_NEAR(std::stod(times[k]), -0.1 + static_cast<double>(frames[k].step) * dt, 1e-12);
    EXPECT_EQ(frames[k].time, times[k]);  // ITEM: TIME, the same round-trip text
    ASSERT_EQ(frames[k].columns.at("id").size(), 60u);
    for (int i = 0; i < 60; ++i) EXPECT_EQ(frames[k].columns.at("id")[i], std::to_string(i + 1));
  }

  // packing 4 is in angles.csv: at every θ sample of the measurement, its frame's θ are that
  // file's θ, text for text (both write round-trip text of the same doubles)
  const fs::path out4 = scratch("frames4");
  ASSERT_EQ(run("run " + short_demo + " --set '/snapshots={\"gammas\": [1], \"start\": 0.1}' " +
                "--threads 1 --out " + out4.string())
                .code,
            0);
  const std::vector<DumpFrame> frames4 = read_dump(out4 / "snapshots/packing_4.lammpstrj");
  const std::vector<std::string> times4 = pvd_times(out4 / "snapshots/packing_4.pvd", "packing_4");
  ASSERT_EQ(frames4.size(), times4.size());
  const std::string angles4 = file_text(out4 / "angles.csv");
  int samples = 0;
  for (std::size_t k = 0; k < frames4.size(); ++k) {
    if (angles4.find("\n" + times4[k] + ",0.6,4,0,") == std::string::npos) continue;
    ++samples;
    for (int i = 0; i < 60; ++i) {
      const std::string row = "\n" + times4[k] + ",0.6,4," + std::to_string(i) + "," +
                              frames4[k].columns.at("theta")[i] + "\n";
      EXPECT_NE(angles4.find(row), std::string::npos) << "t " << times4[k] << " disk " << i;
    }
  }
  EXPECT_EQ(samples, 11);  // 0.2 s sampled every 0.02 s
}

TEST(SnapshotCli, RealReadersReadTheFiles) {
  const fs::path out = scratch("readers");
  ASSERT_EQ(run("run " + short_demo +
                " --set '/snapshots={\"gammas\": [3], \"interval\": 0.1}' "
                "--threads 2 --out " +
                out.string())
                .code,
            0);
  const fs::path dump = out / "snapshots/packing_12.lammpstrj";
  const std::vector<DumpFrame> frames = read_dump(dump);
  ASSERT_EQ(frames.size(), 5u);

  // VTK's own reader: every frame's points are the dump's positions, bit for bit, its TimeValue
  // the dump's time, every disk–disk line joins two touching disks, every disk–wall line ends
  // within its disk, and the normal forces are ≥ 0 (the dashpot may cancel the spring), some > 0
  const char* vtk_check = R"py(
import sys, re, vtk
from vtk.util.numpy_support import vtk_to_numpy as np_of
pvd, dump = sys.argv[1], sys.argv[2]
import os
text = open(dump).read().split("ITEM: TIME\n")[1:]
entries = re.findall(r'timestep="([^"]+)" part="0" file="([^"]+)"', open(pvd).read())
assert len(entries) == len(text), (len(entries), len(text))
for (timestep, name), frame in zip(entries, text):
    r = vtk.vtkXMLPolyDataReader()
    r.SetFileName(os.path.join(os.path.dirname(pvd), name))
    r.Update()
    assert r.GetErrorCode() == 0
    pd = r.GetOutput()
    lines = frame.split("\n")
    t = pd.GetFieldData().GetArray("TimeValue")
    assert t.GetNumberOfTuples() == 1 and t.GetValue(0) == float(lines[0]) == float(timestep)
    n = int(lines[4])
    rows = [l.split() for l in lines[10:10 + n]]  # id type radius x y vx vy omegaz theta
    points = np_of(pd.GetPoints().GetData())
    disk = np_of(pd.GetPointData().GetArray("disk"))
    radius = np_of(pd.GetPointData().GetArray("radius"))
    omega = np_of(pd.GetPointData().GetArray("omega"))
    for i, row in enumerate(rows):
        assert disk[i] == i
        assert points[i][0] == float(row[3]) and points[i][1] == float(row[4]), (i, row)
        assert radius[i] == float(row[2]) and omega[i] == float(row[7]), (i, row)
    kind = np_of(pd.GetCellData().GetArray("kind"))
    fn = np_of(pd.GetCellData().GetArray("normal_force"))
    assert pd.GetNumberOfLines() == len(kind)
    assert ((kind == 2).sum()) == 3, "three box walls"
    conn = np_of(pd.GetLines().GetConnectivityArray())
    for c in range(len(kind)):
        a, b = conn[2 * c], conn[2 * c + 1]
        gap = ((points[a] - points[b]) ** 2).sum() ** 0.5
        if kind[c] == 0:
            assert disk[a] >= 0 and disk[b] >= 0 and gap < radius[a] + radius[b], c
        if kind[c] == 1:
            assert disk[a] >= 0 and disk[b] == -1 and gap < radius[a], c
    assert (fn[kind != 2] >= 0).all() and (fn[kind != 2] > 0).any()
contacts = (kind == 0).sum()
assert contacts > 0, "the packing at the end has disk–disk contacts"
print("vtk ok", len(entries))
)py";
  std::ofstream(out / "vtk_check.py") << vtk_check;
  const Result have_vtk = shell("/usr/bin/python3 -c 'import vtk'");
  ASSERT_EQ(have_vtk.code, 0) << "VTK's Python module is missing: scripts/install_deps.sh "
                                 "installs python3-vtk9\n"
                              << have_vtk.output;
  const Result vtk = shell("/usr/bin/python3 " + (out / "vtk_check.py").string() + " " +
                           (out / "snapshots/packing_12.pvd").string() + " " + dump.string());
  EXPECT_EQ(vtk.code, 0) << vtk.output;
  EXPECT_NE(vtk.output.find("vtk ok 5"), std::string::npos) << vtk.output;

  // LAMMPS' read_dump of the last frame in a 2D run, written back at full precision: the same
  // positions and velocities, and the box's lower y bound is the bottom wall's height
  const Result have_lmp = shell("command -v lmp");
  ASSERT_EQ(have_lmp.code, 0) << "LAMMPS (lmp) is missing: scripts/install_deps.sh installs "
                                 "Debian's lammps";
  const DumpFrame& last = frames.back();
  std::ofstream(out / "in.read") << "units si\ndimension 2\nboundary f f p\natom_style sphere\n"
                                    "region box block 0 1 0 1 -1 1\ncreate_box 3 box\n"
                                 << "read_dump " << dump.string() << " " << last.step
                                 << " x y vx vy box yes add keep\n"
                                 << "write_dump all custom " << (out / "back.txt").string()
                                 << " id x y z vx vy vz modify format float %.17g sort id\n";
  const Result lmp = shell("cd " + out.string() + " && lmp -in in.read -log none -screen none");
  ASSERT_EQ(lmp.code, 0) << lmp.output;
  const std::vector<DumpFrame> back = read_dump(out / "back.txt");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].step, last.step);
  for (const char* c : {"x", "y", "vx", "vy"}) {
    ASSERT_EQ(back[0].columns.at(c).size(), last.columns.at(c).size());
    for (std::size_t i = 0; i < last.columns.at(c).size(); ++i)
      EXPECT_EQ(std::stod(back[0].columns.at(c)[i]), std::stod(last.columns.at(c)[i])) << c << i;
  }
  std::istringstream y_bounds(last.box[1]), y_back(back[0].box[1]);
  double lo = 0, lo_back = 1;
  y_bounds >> lo;
  y_back >> lo_back;
  EXPECT_EQ(lo, lo_back);
}

// A Python with gsd's and OVITO's modules (tests/CMakeLists.txt: GRANULAR_READER_PYTHON)
std::string reader_python() {
  const std::string python = GRANULAR_READER_PYTHON;
  const Result have = shell(python + " -c 'import gsd.hoomd, ovito'");
  EXPECT_EQ(have.code, 0) << python << " lacks gsd's or OVITO's module: run "
                          << "scripts/python_env.sh\n"
                          << have.output;
  return have.code == 0 ? python : "";
}

// the short demo with frames of packing 12 (Γ index 3) every 0.1 s in every format: 5 frames
fs::path readers_run(const std::string& name) {
  const fs::path out = scratch(name);
  const Result r = run("run " + short_demo +
                       " --set '/snapshots={\"gammas\": [3], \"interval\": 0.1}' "
                       "--threads 2 --out " +
                       out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  return out;
}

TEST(SnapshotCli, GsdAndOvitoReadTheFramesAs2DWithTheirTimes) {
  const fs::path out = readers_run("gsd_ovito");
  const std::string python = reader_python();
  ASSERT_FALSE(python.empty());
  // gsd's reader: every frame of the GSD file is the dump's frame: step, time (log/Time, the
  // same double), a 2D box (dimensions 2, Lz = 0) of the dump's extent, the disks' types,
  // diameters, positions relative to the box's centre and velocities as float32 rounds the
  // dump's doubles, ω and θ (log/particles/) the dump's doubles
  const char* gsd_check = R"py(
import sys
import numpy as np
import gsd.hoomd
dump, path = sys.argv[1], sys.argv[2]
frames = open(dump).read().split("ITEM: TIME\n")[1:]
f32 = np.float32
with gsd.hoomd.open(path, "r") as trajectory:
    assert len(trajectory) == len(frames), (len(trajectory), len(frames))
    for frame, text in zip(trajectory, frames):
        lines = text.split("\n")
        t, step, n = float(lines[0]), int(lines[2]), int(lines[4])
        (x0, x1), (y0, y1) = [tuple(map(float, lines[6 + k].split())) for k in range(2)]
        rows = [line.split() for line in lines[10:10 + n]]
        c = frame.configuration
        assert c.step == step and c.dimensions == 2, (c.step, step, c.dimensions)
        assert list(c.box) == [f32(x1 - x0), f32(y1 - y0), 0, 0, 0, 0], c.box
        assert frame.log["Time"][0] == t and frame.log["bottom_y"][0] == y0
        p = frame.particles
        assert p.N == n and list(p.types) == [str(k + 1) for k in range(len(p.types))]
        cx, cy = 0.5 * x1, 0.5 * (y0 + y1)
        for i, (id_, type_, r, x, y, vx, vy, omega, theta) in enumerate(rows):
            assert p.typeid[i] + 1 == int(type_) and p.diameter[i] == f32(2 * float(r)), i
            assert list(p.position[i]) == [f32(float(x) - cx), f32(float(y) - cy), 0], i
            assert list(p.velocity[i]) == [f32(float(vx)), f32(float(vy)), 0], i
            assert frame.log["particles/omega"][i] == float(omega), i
            assert frame.log["particles/theta"][i] == float(theta), i
            q = p.orientation[i]
            assert abs(q[0] - np.cos(float(theta) / 2)) < 1e-6 and q[1] == q[2] == 0, i
print("gsd ok", len(frames))
)py";
  std::ofstream(out / "gsd_check.py") << gsd_check;
  const fs::path dump = out / "snapshots/packing_12.lammpstrj";
  const fs::path gsd = out / "snapshots/packing_12.gsd";
  const Result g = shell(python + " " + (out / "gsd_check.py").string() + " " + dump.string() +
                         " " + gsd.string());
  EXPECT_EQ(g.code, 0) << g.output;
  EXPECT_NE(g.output.find("gsd ok 5"), std::string::npos) << g.output;

  // OVITO opens the dump and the GSD file as 2D trajectories of 5 frames of 60 particles, each
  // frame at its time (the dump's ITEM: TIME as attribute Time, the GSD file's log/Time as
  // attribute Time too) and step, the dump's positions (z = 0) and radii as written
  const char* ovito_check = R"py(
import sys
from ovito.io import import_file
dump, gsd = sys.argv[1], sys.argv[2]
frames = open(dump).read().split("ITEM: TIME\n")[1:]
for path, time_key in ((dump, "Time"), (gsd, "Time")):
    pipeline = import_file(path)
    assert pipeline.source.num_frames == len(frames), pipeline.source.num_frames
    for k, text in enumerate(frames):
        lines = text.split("\n")
        t, step, n = float(lines[0]), int(lines[2]), int(lines[4])
        data = pipeline.compute(k)
        assert data.cell.is2D, path
        assert data.attributes[time_key] == t and data.attributes["Timestep"] == step, k
        assert data.particles.count == n
        if path == dump:
            rows = [line.split() for line in lines[10:10 + n]]
            pos, radius = data.particles.positions, data.particles["Radius"]
            # OVITO's number parser may miss the last bit
            same = lambda a, b: abs(a - b) <= 1e-15 * abs(b)
            for i, row in enumerate(rows):
                assert same(pos[i][0], float(row[3])) and same(pos[i][1], float(row[4])), (k, i)
                assert pos[i][2] == 0 and same(radius[i], float(row[2])), (k, i)
        print(path.rsplit("/", 1)[1], "frame", k, "is2D", data.cell.is2D, time_key,
              data.attributes[time_key], "Timestep", data.attributes["Timestep"],
              "particles", data.particles.count)
print("ovito ok")
)py";
  std::ofstream(out / "ovito_check.py") << ovito_check;
  const Result o = shell(python + " " + (out / "ovito_check.py").string() + " " + dump.string() +
                         " " + gsd.string());
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_NE(o.output.find("ovito ok"), std::string::npos) << o.output;
  std::cout << o.output;  // shown by ctest -V: what OVITO reports
}

TEST(SnapshotCli, LammpsReadsTheDataFileOfAnyFrame) {
  const fs::path out = readers_run("data_file");
  const fs::path dump = out / "snapshots/packing_12.lammpstrj";
  const std::vector<DumpFrame> frames = read_dump(dump);
  ASSERT_EQ(frames.size(), 5u);
  const Result have_lmp = shell("command -v lmp");
  ASSERT_EQ(have_lmp.code, 0) << "LAMMPS (lmp) is missing: scripts/install_deps.sh installs "
                                 "Debian's lammps";
  const std::string tool = std::string(GRANULAR_SOURCE_DIR) + "/tools/lammps_data.py";
  // the frame nearest t = 0.15 s (frame 3 of 0..4: frames at −0.1, −0.04, 0.06, 0.16, 0.26 s)
  // and the last, from the dump and from the GSD file
  struct Case {
    std::string source;
    std::string time;
    std::size_t frame;
  };
  for (const Case& c : {Case{"lammpstrj", " --time 0.15", 3}, Case{"gsd", "", 4}}) {
    SCOPED_TRACE(c.source);
    const fs::path data = out / ("frame_" + c.source + ".data");
    const Result tool_run =
        shell("cd " + out.string() + " && /usr/bin/python3 " + tool + " snapshots/packing_12." +
              c.source + " " + data.string() + c.time);
    ASSERT_EQ(tool_run.code, 0) << tool_run.output;
    const DumpFrame& f = frames[c.frame];
    EXPECT_NE(tool_run.output.find("(step " + std::to_string(f.step) + ", frame " +
                                   std::to_string(c.frame) + " of 5), 60 disks"),
              std::string::npos)
        << tool_run.output;
    EXPECT_NE(file_text(data).find("at t = " + f.time + " s (step " + std::to_string(f.step)),
              std::string::npos);
    // LAMMPS in 2D: read_data, run 0; the atoms, their total mass and the positions back
    std::ofstream(out / "in.data")
        << "units si\ndimension 2\nboundary f f p\natom_style sphere\n"
        << "read_data " << data.string() << "\n"
        << "variable m equal mass(all)\nthermo_style custom step atoms v_m\n"
        << "thermo_modify format float %.17g\nrun 0\n"
        << "write_dump all custom " << (out / "back.txt").string()
        << " id x y vx vy omegaz radius mass modify format float %.17g sort id\n";
    const Result lmp = shell("cd " + out.string() + " && lmp -in in.data -log none");
    ASSERT_EQ(lmp.code, 0) << lmp.output;
    // thermo's row of run 0: step, atoms, total mass
    std::smatch m;
    ASSERT_TRUE(std::regex_search(lmp.output, m, std::regex(R"(\n\s+0\s+60\s+(\S+)\s*\n)")))
        << lmp.output;
    // every disk's mass ρπr² with the case's areal density (3.57 kg/m²)
    double mass = 0;
    for (const std::string& r : f.columns.at("radius")) {
      const double radius = std::stod(r);
      mass += 3.57 * M_PI * radius * radius;
    }
    // (the GSD file's radii are float32)
    EXPECT_NEAR(std::stod(m[1]), mass, (c.source == "gsd" ? 1e-6 : 1e-12) * mass);
    const std::vector<DumpFrame> back = read_dump(out / "back.txt");
    ASSERT_EQ(back.size(), 1u);
    for (const char* col : {"x", "y", "vx", "vy", "omegaz", "radius"}) {
      for (int i = 0; i < 60; ++i) {
        const double want = std::stod(f.columns.at(col)[i]);
        const double got = std::stod(back[0].columns.at(col)[i]);
        // the dump's doubles exactly; the GSD file's float32 (and positions about the centre)
        if (c.source == "lammpstrj")
          EXPECT_EQ(got, want) << col << " " << i;
        else
          EXPECT_NEAR(got, want, 1e-7 * (std::fabs(want) + 0.5)) << col << " " << i;
      }
    }
  }
}

}  // namespace
