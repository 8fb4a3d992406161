// Issue 32: the surfaces a colleague's data reaches — a shard's file records, a registry of
// stated results, a checkpoint, special files given as inputs. Each reproducer below made the
// program write or read outside the folders it was given, crash, wait for ever or exit 1; each
// is now refused in one line naming the file (and the JSON pointer), exit 2, nothing written.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "granular/cases/case.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/json_reader.hpp"
#include "support/cli_scratch.hpp"

namespace granular::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path source_dir = GRANULAR_SOURCE_DIR;

json read_json(const fs::path& p) { return json::parse(file_text(p)); }
void write_json(const fs::path& p, const json& j) { std::ofstream(p) << j.dump(1); }

// The record summary.json keeps of a file (io::record_files), of any file.
json record_of(const fs::path& file) {
  return {{"bytes", fs::file_size(file)},
          {"checksum", io::checksum_text(*io::file_checksum(file))}};
}

class HostileSurfaces : public CliScratch {
 protected:
  HostileSurfaces() : CliScratch("hostile_surfaces") {}

  // A refusal: exit 2 and one line that starts with `start`.
  static void expect_refused(const CliResult& r, const std::string& start) {
    EXPECT_EQ(r.code, 2) << r.err.substr(0, 300);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err.substr(0, 300);
    EXPECT_EQ(r.err.rfind(start, 0), 0u) << r.err.substr(0, 300);
  }

  // The two shards of tests/data/good_ensemble.json (packing 0 and 1 of every Γ, the first
  // packing of each photographed) in s0 and s1.
  void make_shards() {
    const std::string run = "run '" + (source_dir / "tests/data/good_ensemble.json").string() +
                            "' --threads 1 --set '/snapshots={\"packings\": [0, 1], "
                            "\"interval\": 0.05}' ";
    ASSERT_EQ(granular(run + "--out s0 --packings 0:1").code, 0);
    ASSERT_EQ(granular(run + "--out s1 --packings 1:2").code, 0);
  }

  // d0 and d1, copies of the shards, with d0's summary changed by `edit`.
  void edited_shards(const std::function<void(json&)>& edit) {
    ASSERT_EQ(sh("rm -rf d0 d1 o && mkdir o && cp -r s0 d0 && cp -r s1 d1").code, 0);
    json summary = read_json(dir_ / "d0" / "summary.json");
    edit(summary);
    write_json(dir_ / "d0" / "summary.json", summary);
  }

  // A registry in papers/stated_results.json beside a copy of the shipped cases.
  void write_registry(const json& registry) {
    fs::remove_all(dir_ / "papers");
    fs::create_directories(dir_ / "papers");
    if (!fs::exists(dir_ / "cases"))
      fs::copy(source_dir / "cases", dir_ / "cases", fs::copy_options::recursive);
    std::ofstream(dir_ / "papers" / "stated_results.json") << registry.dump(1);
  }

  // A registry of one result of the pendulum paper on cases/pendulum_mu0.json (6 impacts),
  // `edit`ed.
  static json registry_of(const std::function<void(json&)>& edit) {
    json result = {{"id", "count"},
                   {"paper", "pendulum"},
                   {"where", "§4"},
                   {"statement", "six impacts"},
                   {"printed", {{"kind", "count"}, {"value", 6}}},
                   {"tolerance", {{"absolute", 0}, {"why", "a count"}}},
                   {"cost", {{"quick_s", 0.2}, {"full_s", 0.2}}},
                   {"measure",
                    {{"case", "cases/pendulum_mu0.json"},
                     {"set", {{"/run/t_end", 6.0}}},
                     {"quick_set", {{"/run/t_end", 6.0}}},
                     {"compute", {{"value", "json('summary.json', '/impact_count')"}}}}}};
    json registry = {{"format", 1}, {"papers", {{"pendulum", "the paper"}}}, {"results", {result}}};
    edit(registry["results"][0]);
    return registry;
  }
};

// Item 1: merge copied every "snapshots/..." record of a shard's summary unchecked: a record
// "snapshots/../../victim.txt" with the victim's true size and checksum read it from outside the
// shard and wrote it outside --out, exit 0.
TEST_F(HostileSurfaces, MergeReadsAndWritesOnlyTheShardsOwnFiles) {
  make_shards();
  std::ofstream(dir_ / "victim.txt") << "not a snapshot\n";
  const json victim = record_of(dir_ / "victim.txt");
  for (const std::string& name :
       {std::string("snapshots/../../victim.txt"), (dir_ / "victim.txt").string(),
        std::string("../victim.txt"), std::string("snapshots//packing_0.pvd")}) {
    SCOPED_TRACE(name);
    edited_shards([&](json& s) { s["files"][name] = victim; });
    expect_refused(granular("merge --out o/m d0 d1"),
                   "d0/summary.json: /files/" + io::pointer_token(name) + ": ");
    EXPECT_FALSE(fs::exists(dir_ / "o" / "m"));
    EXPECT_FALSE(fs::exists(dir_ / "o" / "victim.txt"));
  }
  // a snapshot that is a link out of the shard, recorded with the target's size and checksum
  edited_shards([&](json& s) { s["files"]["snapshots/packing_0.pvd"] = victim; });
  fs::remove(dir_ / "d0" / "snapshots" / "packing_0.pvd");
  fs::create_symlink(dir_ / "victim.txt", dir_ / "d0" / "snapshots" / "packing_0.pvd");
  expect_refused(granular("merge --out o/m d0 d1"),
                 "d0/summary.json: /files/snapshots~1packing_0.pvd: a link on the way leads out "
                 "of the folder");
  EXPECT_FALSE(fs::exists(dir_ / "o" / "m"));
  // a name no run writes, and two shards recording the same snapshot (packing 1 is d1's): exit
  // 1 and a partial merge before
  for (const std::string& name :
       {std::string("notes.txt"), std::string("snapshots/packing_1.pvd")}) {
    SCOPED_TRACE(name);
    edited_shards([&](json& s) { s["files"][name] = record_of(dir_ / "s1" / "summary.json"); });
    expect_refused(granular("merge --out o/m d0 d1"),
                   "d0/summary.json: /files/" + io::pointer_token(name) + ": ");
    EXPECT_FALSE(fs::exists(dir_ / "o" / "m"));
  }
  // the shards as written still merge
  EXPECT_EQ(granular("merge --out o/m s0 s1").code, 0);
}

// The campaign of issue 32 (tools/hostile_campaign.py --summaries): merge crashed (SIGSEGV) on a
// packing whose rho2 was empty, wrote half a run for a summary missing sample_interval, left out
// a snapshot whose record was deleted, and copied any per-packing number. Every value merge
// takes from a summary is now checked against the case first.
TEST_F(HostileSurfaces, MergeChecksEveryValueItTakes) {
  make_shards();
  struct Bad {
    std::function<void(json&)> edit;
    std::string start;
  };
  const std::vector<Bad> bad = {
      {[](json& s) { s["packings"][2]["rho2"] = json::array(); },
       "/packings/2/rho2: not an array of one value per disk"},
      {[](json& s) { s["packings"][0]["sigma_a"] = nullptr; },
       "/packings/0/sigma_a: not an array of one value per disk"},
      {[](json& s) { s["packings"][1]["rho2"][4] = -9.2e18; },
       "/packings/1/rho2/4: not a value this packing can have"},
      {[](json& s) { s["packings"][1]["omega_bar"][0] = 1e6; },
       "/packings/1/omega_bar/0: not a value this packing can have"},
      {[](json& s) { s["packings"][0]["gamma"] = 7; }, "/packings/0/gamma: not the case's"},
      {[](json& s) { s.erase("sample_interval"); }, "/sample_interval: missing, or not the case's"},
      {[](json& s) { s["dt"] = 1.0; }, "/dt: missing, or not the case's"},
      {[](json& s) { s["particle_steps"] = 1e300; }, "/particle_steps: not a count or time"},
      {[](json& s) { s["files"].erase("snapshots/packing_0.pvd"); },
       "/files: no record of snapshots/packing_0.pvd"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.start);
    edited_shards(b.edit);
    expect_refused(granular("merge --out o/m d0 d1"), "d0/summary.json: " + b.start);
    EXPECT_FALSE(fs::exists(dir_ / "o" / "m"));
  }
}

// Item 8: merge --out inside a shard wrote into the shard.
TEST_F(HostileSurfaces, MergeNeverWritesIntoAShard) {
  make_shards();
  const std::string before = file_text(dir_ / "s0" / "summary.json");
  expect_refused(granular("merge --out s0/m s0 s1"), "--out s0/m: lies inside the shard folder");
  expect_refused(granular("merge --out s1/ s0 s1"), "--out s1/: is the shard folder");
  EXPECT_FALSE(fs::exists(dir_ / "s0" / "m"));
  EXPECT_EQ(file_text(dir_ / "s0" / "summary.json"), before);
}

// Item 1: reproduce wrote figures/<id>.svg with the registry's id as given; ids, run names and
// case paths are plain names, checked with the whole registry before anything runs.
TEST_F(HostileSurfaces, ARegistryNamesNothingOutsideItsFolders) {
  struct Bad {
    std::function<void(json&)> edit;
    std::string start;
  };
  const std::vector<Bad> bad = {
      {[](json& r) { r["id"] = "../../x"; }, "/results/0/id: an id starts with"},
      {[](json& r) { r["id"] = "a/../../x"; }, "/results/0/id: an id of letters"},
      {[](json& r) { r["id"] = "/tmp/x"; }, "/results/0/id: an id starts with"},
      {[](json& r) { r["id"] = ""; }, "/results/0/id: an id of 1 to 100"},
      {[](json& r) { r["measure"]["case"] = "../cases/pendulum_mu0.json"; },
       "/results/0/measure/case: not a case inside the project: a name with a part '..'"},
      {[](json& r) { r["measure"]["case"] = "/etc/passwd"; },
       "/results/0/measure/case: not a case inside the project: an absolute path"},
      {[](json& r) { r["measure"]["case"] = "cases/outside.json"; },
       "/results/0/measure/case: not a case inside the project: a link on the way leads out"},
      {[](json& r) {
         r["measure"]["compute"]["runs"] = {{"../up", json::object()}};
       },
       "/results/0/measure/compute/runs/..~1up: a run's name of letters"},
  };
  for (const Bad& b : bad) {
    write_registry(registry_of(b.edit));
    fs::remove(dir_ / "cases" / "outside.json");
    fs::create_symlink(source_dir / "cases" / "pendulum_mu0.json", dir_ / "cases" / "outside.json");
    for (const char* how : {"--out rep", "--dry-run"}) {
      SCOPED_TRACE(b.start + " " + how);
      expect_refused(granular(std::string("reproduce ") + how),
                     "papers/stated_results.json: " + b.start);
      EXPECT_FALSE(fs::exists(dir_ / "rep"));
      EXPECT_FALSE(fs::exists(dir_ / "x.svg"));
    }
  }
}

// Item 6: an expression could read any file on the machine; now only the files its runs wrote,
// inside their folders.
TEST_F(HostileSurfaces, AnExpressionReadsOnlyItsRunsFiles) {
  std::ofstream(dir_ / "secret.json") << "{\"x\": 1}\n";
  const std::vector<std::pair<std::string, std::string>> reads = {
      {"json('../../../secret.json', '/x')", "a name with a part '..'"},
      {"json('" + (dir_ / "secret.json").string() + "', '/x')", "an absolute path"},
      {"col('/etc/passwd', 'root')", "an absolute path"},
      {"json('notes.json', '/x')", "not a file a run writes"},
      {"json('summary.json/../../../../secret.json', '/x')", "a name with a part '..'"}};
  json registry = registry_of([](json&) {});
  for (std::size_t k = 0; k < reads.size(); ++k) {
    json r = registry["results"][0];
    r["id"] = "read" + std::to_string(k);
    r["measure"]["compute"]["value"] = reads[k].first;
    registry["results"].push_back(r);
  }
  write_registry(registry);
  const CliResult run = granular("reproduce --out rep --threads 1");
  EXPECT_EQ(run.code, 3) << run.err;
  const json report = read_json(dir_ / "rep" / "results.json");
  EXPECT_EQ(report["results"][0]["verdict"], "reproduced");
  for (std::size_t k = 0; k < reads.size(); ++k) {
    SCOPED_TRACE(reads[k].first);
    EXPECT_EQ(report["results"][k + 1]["verdict"], "failed");
    EXPECT_NE(report["results"][k + 1]["message"].get<std::string>().find(reads[k].second),
              std::string::npos)
        << report["results"][k + 1]["message"];
  }
  // a run's own folder holding a link out: not followed either
  const fs::path folder = fs::directory_iterator(dir_ / "rep" / "runs")->path();
  fs::create_symlink(dir_ / "secret.json", folder / "impacts.csv");
  registry["results"][1]["measure"]["compute"]["value"] = "len(col('impacts.csv', 'x'))";
  write_registry(registry);
  granular("reproduce --out rep --threads 1");
  EXPECT_NE(
      read_json(dir_ / "rep" / "results.json")["results"][1]["message"].get<std::string>().find(
          "a link on the way leads out of the folder"),
      std::string::npos);
}

// Item 2: a registry nested 300 000 deep (with --dry-run too), and a json() expression reading
// a deeply nested file: SIGSEGV. Item 4: a registry or a case that is a FIFO waited for ever;
// /dev/zero as a case was read until memory ran out.
TEST_F(HostileSurfaces, EveryJsonIsReadWithTheDepthLimitFromARegularFileOfBoundedSize) {
  const std::string deep = std::string(300000, '[') + std::string(300000, ']');
  fs::create_directories(dir_ / "papers");
  std::ofstream(dir_ / "papers" / "stated_results.json") << "{\"about\": " + deep + "}";
  for (const char* how : {"--out rep", "--dry-run"})
    expect_refused(granular(std::string("reproduce ") + how),
                   "papers/stated_results.json: invalid JSON at line 1, column ");

  // the deep file where an expression reads it: a scan's point summary, made deep after the run
  // (a finished run is not repeated: its own summary.json is the one checked)
  write_registry(registry_of([](json& r) {
    r["measure"]["quick_set"] = {{"/scan", {{"/run/t_end", {1, 2}}}}};
    r["measure"]["compute"] = {{"value", "json('point_0/summary.json', '/impact_count')"}};
  }));
  granular("reproduce --out rep --threads 1");
  const fs::path folder = fs::directory_iterator(dir_ / "rep" / "runs")->path();
  std::ofstream(folder / "point_0" / "summary.json") << deep;
  const CliResult measured = granular("reproduce --out rep --threads 1");
  EXPECT_EQ(measured.code, 3) << measured.err;
  const json report = read_json(dir_ / "rep" / "results.json");
  EXPECT_EQ(report["results"][0]["verdict"], "failed");
  EXPECT_NE(report["results"][0]["message"].get<std::string>().find("nested deeper than"),
            std::string::npos)
      << report["results"][0]["message"];

  // special files: refused at once, never waited on or read for ever
  ASSERT_EQ(::mkfifo((dir_ / "fifo.json").c_str(), 0600), 0);
  const std::string t = "timeout 20 '" + std::string(GRANULAR_CLI) + "' ";
  expect_refused(sh(t + "validate fifo.json"), "fifo.json: not a regular file: a FIFO");
  expect_refused(sh(t + "reproduce --registry fifo.json --dry-run"),
                 "fifo.json: not a regular file: a FIFO");
  expect_refused(sh(t + "validate /dev/zero"), "/dev/zero: not a regular file: a device");
  expect_refused(sh(t + "reproduce --registry papers --dry-run"),
                 "papers: not a regular file: a folder");
  // item 8: a folder given as the case was called invalid JSON
  expect_refused(sh(t + "validate papers"), "papers: not a regular file: a folder");
  // a case larger than any case (a sparse file: no disk used)
  ASSERT_EQ(sh("truncate -s 20M huge.json").code, 0);
  expect_refused(sh(t + "validate huge.json"), "huge.json: 20971520 bytes, more than");
}

// Items 5 and 6: a registry's values are checked whole before any run: a non-string statement
// failed after the runs with a raw JSON exception, negative tolerances and costs were taken,
// an expression of 10⁶ terms took 28 s to parse.
TEST_F(HostileSurfaces, ARegistryIsCheckedWholeBeforeAnyRun) {
  struct Bad {
    std::function<void(json&)> edit;
    std::string start;
  };
  std::string long_sum = "1";
  for (int k = 0; k < 1000000; ++k) long_sum += "+1";
  const std::vector<Bad> bad = {
      {[](json& r) { r["statement"] = 7; }, "/results/0/statement: must be a string"},
      {[](json& r) { r["where"] = json::array(); }, "/results/0/where: must be a string"},
      {[](json& r) { r["tolerance"]["absolute"] = -1; },
       "/results/0/tolerance/absolute: must be >= 0"},
      {[](json& r) { r["tolerance"]["relative"] = "wide"; },
       "/results/0/tolerance/relative: must be a number"},
      {[](json& r) { r["cost"]["quick_s"] = -5; }, "/results/0/cost/quick_s: must be >= 0"},
      {[](json& r) { r["measure"]["compute"]["value"] = "json('summary.json', "; },
       "/results/0/measure/compute/value: unexpected end"},
      {[](json& r) { r["measure"]["compute"]["pass"] = "nosuch(value)"; },
       "/results/0/measure/compute/pass: unknown function nosuch()"},
      {[&](json& r) { r["measure"]["compute"]["value"] = long_sum; },
       "/results/0/measure/compute/value: an expression of 2000001 characters"},
      {[](json& r) { r["printed"]["kind"] = "guess"; }, "/results/0/printed/kind: unknown kind"},
      {[](json& r) { r["known_disagreement"] = false; },
       "/results/0/known_disagreement: must be an object"},
      {[](json& r) { r["known_disagreement"] = {{"class", "luck"}, {"why", "-"}}; },
       "/results/0/known_disagreement/class: unknown class of disagreement"},
      {[](json& r) { r["extra"] = 1; }, "/results/0/extra: unknown key"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.start);
    write_registry(registry_of(b.edit));
    expect_refused(granular("reproduce --out rep"), "papers/stated_results.json: " + b.start);
    EXPECT_FALSE(fs::exists(dir_ / "rep"));
  }
  // an id repeated, or a second entry's defect: the whole registry, not the entries chosen
  json twice = registry_of([](json&) {});
  twice["results"].push_back(twice["results"][0]);
  write_registry(twice);
  expect_refused(granular("reproduce --out rep --result count"),
                 "papers/stated_results.json: /results/1/id: repeats the id of /results/0");
}

// Item 6: 1/0 and 0/0 gave "disagrees"; a quotient by zero, and a comparison of a number that
// is none, fail the result instead of deciding it.
TEST_F(HostileSurfaces, DivisionByZeroAndNonNumbersFailTheResult) {
  json registry = registry_of([](json&) {});
  const std::vector<std::pair<std::string, std::string>> values = {
      {"1 / 0", "division by zero"},
      {"0 / 0", "division by zero"},
      {"json('summary.json', '/impact_count') / (1 - 1)", "division by zero"},
      {"log(0)", "not a finite number"},
      {"exp(1000)", "not a finite number"}};
  registry["results"][0]["measure"]["compute"]["value"] = values[0].first;
  for (std::size_t k = 1; k < values.size(); ++k) {
    json r = registry["results"][0];
    r["id"] = "v" + std::to_string(k);
    r["measure"]["compute"]["value"] = values[k].first;
    registry["results"].push_back(r);
  }
  // a value that is no finite number, whatever the pass or require (the campaign of issue 32
  // found "agrees" for exp(1000) under a pass that ignores it, "disagrees" under a failed
  // require), and a comparison of a number that is none
  const std::vector<std::pair<std::string, json>> ignored = {
      {"exp(1000)", {{"pass", "1 == 1"}}},
      {"sqrt(-1)", {{"pass", "value > 0 or value <= 0"}}},
      {"slope([1, 1], [1, 2])", {{"require", {"false"}}}}};
  for (std::size_t k = 0; k < ignored.size(); ++k) {
    json r = registry["results"][0];
    r["id"] = "ignored" + std::to_string(k);
    r["measure"]["compute"]["value"] = ignored[k].first;
    r["measure"]["compute"].update(ignored[k].second);
    registry["results"].push_back(r);
  }
  json compared = registry["results"][0];
  compared["id"] = "compared";
  compared["measure"]["compute"]["value"] = "1";
  compared["measure"]["compute"]["pass"] = "sqrt(-1) < 2";
  registry["results"].push_back(compared);
  write_registry(registry);
  const CliResult run = granular("reproduce --out rep --threads 1");
  EXPECT_EQ(run.code, 3) << run.err;
  const json report = read_json(dir_ / "rep" / "results.json");
  for (std::size_t k = 0; k < values.size(); ++k) {
    SCOPED_TRACE(values[k].first);
    EXPECT_EQ(report["results"][k]["verdict"], "failed");
    EXPECT_NE(report["results"][k]["message"].get<std::string>().find(values[k].second),
              std::string::npos)
        << report["results"][k]["message"];
  }
  for (std::size_t k = 0; k < ignored.size(); ++k) {
    const json& r = report["results"][values.size() + k];
    EXPECT_EQ(r["verdict"], "failed") << ignored[k].first;
    EXPECT_NE(r["message"].get<std::string>().find("value: not a finite number"), std::string::npos)
        << r["message"];
  }
  const json& c = report["results"][values.size() + ignored.size()];
  EXPECT_EQ(c["verdict"], "failed");
  EXPECT_NE(c["message"].get<std::string>().find("nan and 2: not a number"), std::string::npos)
      << c["message"];
}

// Item 8: the wedge's wall law refused for a disk's areal density named /contact.
TEST_F(HostileSurfaces, AMessageNamesTheKeyAtFault) {
  const std::string wedge =
      "validate '" + (source_dir / "cases/wedge_fig6_ed_contact_law.json").string() + "'";
  expect_refused(granular(wedge + " --set /disk/areal_density=1e-300"),
                 (source_dir / "cases/wedge_fig6_ed_contact_law.json").string() +
                     ": /disk/areal_density: with a disk of radius 0.02 m at areal density 1e-300");
  expect_refused(
      granular(wedge + " --set /disk/radius=1e-9"),
      (source_dir / "cases/wedge_fig6_ed_contact_law.json").string() + ": /disk/radius: ");
  expect_refused(granular(wedge + " --set /contact/k_n=1e30"),
                 (source_dir / "cases/wedge_fig6_ed_contact_law.json").string() + ": /contact: ");
}

// Items 3 and 5: a refused checkpoint was "run failed", exit 1 (off the schedule: on two lines
// and without the file's name); a disk spinning at 1e3 rad/s resumed as ok; a streamed file's
// name from the checkpoint was read wherever it pointed.
TEST_F(HostileSurfaces, ARefusedCheckpointIsBadInputOnOneLine) {
  const fs::path case_path = source_dir / "tests/data/good_ensemble.json";
  const std::string run =
      "run '" + case_path.string() + "' --threads 1 --set /run/measure_time=100 --out ";
  sh("timeout -s INT 1 '" + std::string(GRANULAR_CLI) + "' " + run + "r");
  ASSERT_TRUE(fs::exists(dir_ / "r" / "checkpoint.bin"));
  std::ofstream(dir_ / "victim.txt") << "energy\n";
  // the checkpoint read, changed and written back with its checksum recomputed
  const cases::LoadedCase lc = cases::load_case(case_path.string(), {"/run/measure_time=100"});
  const auto& ensemble = dynamic_cast<const cases::PackingEnsemble&>(*lc.spec).ensemble();
  const std::string fingerprint = cases::case_fingerprint(lc.echo, std::nullopt);
  const auto damaged = [&](const std::string& folder,
                           const std::function<void(io::EnsembleCheckpoint&)>& damage) {
    EXPECT_EQ(sh("rm -rf " + folder + " && cp -r r " + folder).code, 0);
    const fs::path path = dir_ / folder / "checkpoint.bin";
    io::EnsembleCheckpoint c = io::read_checkpoint(path, ensemble.model, fingerprint);
    damage(c);
    io::write_checkpoint(path, c.header, c.point.state, c.point.rotation);
    return granular(run + folder + " --resume");
  };
  const int disk = ensemble.model.offset[3] + 2;
  expect_refused(
      damaged("spin", [&](io::EnsembleCheckpoint& c) { c.point.state.omega[disk] = 1e3; }),
      "spin/checkpoint.bin: damaged checkpoint (packing 3, disk 2 (status ok): ω = "
      "1e+03 rad/s");
  expect_refused(damaged("high", [&](io::EnsembleCheckpoint& c) { c.point.state.y[disk] = 1e6; }),
                 "high/checkpoint.bin: damaged checkpoint (packing 3, disk 2 (status ok): y = "
                 "1e+06 m");
  expect_refused(damaged("early", [](io::EnsembleCheckpoint& c) { c.point.state.t0 = -1.0; }),
                 "early/checkpoint.bin: damaged checkpoint (it does not lie on the case's "
                 "schedule");
  expect_refused(
      damaged("named",
              [](io::EnsembleCheckpoint& c) { c.header.streams[0].name = "../victim.txt"; }),
      "named/checkpoint.bin: damaged checkpoint (it records a streamed file \"../victim.txt\": a "
      "name with a part '..'");
  EXPECT_EQ(file_text(dir_ / "victim.txt"), "energy\n");
  // the checkpoint as written resumes (and is stopped again: exit 75)
  EXPECT_EQ(sh("timeout --preserve-status -s INT 2 '" + std::string(GRANULAR_CLI) + "' " + run +
               "r --resume")
                .code,
            75);
}

}  // namespace
}  // namespace granular::test
