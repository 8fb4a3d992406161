// Tests for cli/main.cpp: the real `granular` binary on good and bad cases. Bad input exits
// with 2, names the file and the JSON pointer on stderr, and creates no output folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "granular/io/checkpoint.hpp"
#include "support/cli_scratch.hpp"

namespace {

namespace fs = std::filesystem;

using Result = granular::test::CliResult;
using granular::test::file_text;

std::string data_path(const std::string& name) {
  return std::string(GRANULAR_SOURCE_DIR) + "/tests/data/" + name;
}

// A fresh scratch folder per test, removed afterwards (tests/support/cli_scratch.hpp).
class Cli : public granular::test::CliScratch {
 protected:
  Cli() : CliScratch("cli_test") {}

  // granular on a pseudo-terminal (script(1)): what the terminal showed lands in `out`.
  Result granular_on_terminal(const std::string& args) const {
    const std::string inner = "'" + std::string(GRANULAR_CLI) + "' " + args;
    std::string quoted;  // inner as one single-quoted shell word
    for (const char ch : inner) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return sh("script -qec '" + quoted + "' /dev/null");
  }
};

TEST_F(Cli, BadCasesExitTwoNameFileAndPointerCreateNothing) {
  const std::pair<const char*, const char*> cases[] = {
      {"bad_unknown_key.json", "/contact/disk_disk/k_m: unknown key"},
      {"bad_unknown_top_key.json", "/gravty: unknown key"},
      {"bad_wrong_type.json", "/run/measure_time: must be a number"},
      {"bad_missing_key.json", "/drive/frequency: required key is missing"},
      {"bad_negative_radius.json", "/packing/species/1/radius: must be > 0"},
      {"bad_negative_gamma.json", "/drive/gamma/1: must be >= 0"},
      {"bad_box_narrow.json", "/packing/box_width: 0.04 m is narrower than the largest disk"},
      {"bad_dt_too_large.json", "/integrator/dt: 0.001 s is too large for the stiffness"},
      {"bad_both_dt.json", "/integrator: give either dt or steps_per_collision"},
      {"bad_unknown_model.json", "/model: unknown model \"packing_ensembel\""},
      {"bad_collision_radius_b.json", "/disks/radius_b: only for"},
      {"bad_collision_u_n.json", "/impact/u_n: must be > 0"},
      {"bad_syntax.json", ": invalid JSON at line 4, column "},
  };
  for (const auto& [file, expected] : cases) {
    const std::string path = data_path(file);
    const fs::path out = dir_ / (std::string("out_") + file);
    const Result r = granular("run '" + path + "' --out '" + out.string() + "'");
    EXPECT_EQ(r.code, 2) << file;
    EXPECT_NE(r.err.find(path + ": "), std::string::npos) << file << ": " << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << file << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << file << ": " << r.err;
    EXPECT_FALSE(fs::exists(out)) << file;

    // validate reports the same error
    const Result v = granular("validate '" + path + "'");
    EXPECT_EQ(v.code, 2) << file;
    EXPECT_NE(v.err.find(expected), std::string::npos) << file << ": " << v.err;
  }
  // the default output folder (out/<stem>) is not created either
  const Result r = granular("run '" + data_path("bad_wrong_type.json") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, BadOptionsExitTwo) {
  const std::string good = "'" + data_path("good_collision.json") + "'";
  const fs::path out = dir_ / "out_bad_option";
  const std::string to = " --out '" + out.string() + "'";
  const std::pair<std::string, std::string> calls[] = {
      {"run " + good + to + " --set /impact/u_n=-1",
       data_path("good_collision.json") + ": /impact/u_n: must be > 0 (--set /impact/u_n=-1)"},
      {"run " + good + to + " --set impact/u_n=1", "--set impact/u_n=1: the pointer must start"},
      {"run " + good + to + " --set /impact/v_n=1", "/impact/v_n: unknown key"},
      {"run " + good + to + " --threads abc", "--threads: expected an integer"},
      {"run " + good + to + " --threads 0", "--threads: expected an integer"},
      {"run " + good + to + " --threads", "--threads: missing value"},
      {"run " + good + to + " --frobnicate", "unknown option \"--frobnicate\""},
      {"run " + good + to + " --thread 2",
       "unknown option \"--thread\" for run (did you mean \"--threads\"?)"},
      {"run " + good + to + " " + good, "unexpected argument"},
      {"run" + to, "run: missing CASE.json"},
      {"walk " + good + to, "unknown command \"walk\""},
      {"run '" + (dir_ / "missing.json").string() + "'" + to, "missing.json: cannot open"},
  };
  for (const auto& [args, expected] : calls) {
    const Result r = granular(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(out)) << args;
  }
  EXPECT_EQ(granular("").code, 2);
  // usage errors show the usage line
  EXPECT_NE(granular("run --threads x").err.find("usage: granular run"), std::string::npos);
}

TEST_F(Cli, HelpAndVersion) {
  const Result h = granular("--help");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("usage: granular run CASE.json"), std::string::npos);
  const Result v = granular("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind(std::string("granular ") + GRANULAR_VERSION + " (commit ", 0), 0u) << v.out;
  EXPECT_NE(v.out.find("-bit vectors"), std::string::npos) << v.out;
  EXPECT_EQ(std::count(v.out.begin(), v.out.end(), '\n'), 1) << v.out;
}

// Issue 21, item 7: `granular COMMAND --help` was "unknown option"; an interrupt with a good
// checkpoint and a failure both exited 1; no --quiet, no log in the output folder, progress
// lines newline-terminated on a terminal too.
TEST_F(Cli, EveryCommandHasItsHelp) {
  for (const char* command : {"run", "validate", "merge"}) {
    const Result h = granular(std::string(command) + " --help");
    EXPECT_EQ(h.code, 0) << command;
    EXPECT_EQ(h.out.rfind(std::string("usage: granular ") + command, 0), 0u) << h.out;
    EXPECT_NE(h.out.find("75 a run stopped by a signal with"), std::string::npos) << h.out;
  }
  EXPECT_NE(granular("run -h").out.find("--quiet"), std::string::npos);
  EXPECT_NE(granular("--help").out.find("granular COMMAND --help"), std::string::npos);
}

TEST_F(Cli, RunLogKeepsTheProgressAndQuietKeepsStderrClear) {
  const std::string good = "'" + data_path("good_ensemble.json") + "' --threads 1";
  const Result quiet = granular("run " + good + " --out q --quiet");
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  const std::string log = file_text(dir_ / "q" / "run.log");
  EXPECT_EQ(log.rfind("started 20", 0), 0u) << log;
  EXPECT_NE(log.find(": granular " + std::string(GRANULAR_VERSION) + " (commit "),
            std::string::npos);
  EXPECT_NE(log.find("\n$ granular run "), std::string::npos) << log;
  EXPECT_NE(log.find("[measure  ] t = "), std::string::npos) << log;
  EXPECT_EQ(log.find('\r'), std::string::npos);  // lines, not terminal updates
  EXPECT_NE(log.find("\nfinished, outputs in q, 20"), std::string::npos) << log;
  // stderr that is not a terminal gets the same lines
  const Result loud = granular("run " + good + " --out l");
  EXPECT_NE(loud.err.find("\n[measure  ] t = "), std::string::npos) << loud.err;
  EXPECT_EQ(loud.err.find('\r'), std::string::npos);
  // a terminal (a pseudo-terminal by script(1)): each progress line overwrites the last
  const Result tty = granular_on_terminal("run " + good + " --out t --force");
  EXPECT_NE(tty.out.find("\r[measure  ] t = "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\033[K"), std::string::npos);
}

// summary.json says where its result comes from (issue 21, item 5): the commit and build the
// binary was made from, the host, the date and the command line, and every table's units.
TEST_F(Cli, SummaryRecordsProvenanceAndUnits) {
  const fs::path out = dir_ / "with space";
  const std::string args = "run '" + std::string(GRANULAR_SOURCE_DIR) +
                           "/cases/collision_disk_wall.json' --out '" + out.string() +
                           "' --set /impact/u_t=0.2";
  ASSERT_EQ(granular(args).code, 0);
  const nlohmann::json s = nlohmann::json::parse(file_text(out / "summary.json"));
  const nlohmann::json& p = s["provenance"];
  EXPECT_EQ(p["granular_version"], GRANULAR_VERSION);
  // shell words: quoted only where the shell needs it (the space)
  EXPECT_EQ(p["command_line"], "granular run " + std::string(GRANULAR_SOURCE_DIR) +
                                   "/cases/collision_disk_wall.json --out '" + out.string() +
                                   "' --set /impact/u_t=0.2");
  EXPECT_TRUE(
      std::regex_match(p["date"].get<std::string>(),
                       std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")))
      << p["date"];
  EXPECT_FALSE(p["host"].get<std::string>().empty());
  for (const char* key : {"type", "native", "arch_flags", "vector_bits", "cuda",
                          "cuda_architectures", "mpi", "compiler"})
    EXPECT_TRUE(p["build"].contains(key)) << key;
  // --version names the same commit
  const std::string commit = p["commit"];
  EXPECT_NE(granular("--version").out.find("(commit " + commit + ","), std::string::npos);
  // the units, as the table declares them
  const nlohmann::json& columns = s["tables"]["collision.csv"];
  ASSERT_FALSE(columns.empty());
  EXPECT_EQ(columns[0]["name"], "t");
  EXPECT_EQ(columns[0]["unit"], "s");
}

TEST_F(Cli, ValidatePrintsDerivedQuantities) {
  const Result e = granular("validate '" + data_path("good_ensemble.json") + "'");
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("t_c = "), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("e_n = "), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("dt = "), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("6 packings of 5 disks"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("Γ = 2 "), std::string::npos) << e.out;
  const Result c = granular("validate '" + data_path("good_collision.json") + "'");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("predicted: e_n = "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("t_c = "), std::string::npos) << c.out;
  // validate creates nothing
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Cli, RunCollisionWritesSummary) {
  const fs::path out = dir_ / "collision";
  const Result r = granular("run '" + data_path("good_collision.json") + "' --out '" +
                            out.string() + "' --set /impact/u_t=0.02");
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(fs::exists(out / "summary.json"));
  const nlohmann::json s = nlohmann::json::parse(file_text(out / "summary.json"));
  EXPECT_EQ(s["model"], "collision");
  // the echo is the case as run: override applied, defaults filled
  EXPECT_EQ(s["case"]["impact"]["u_t"], 0.02);
  EXPECT_EQ(s["case"]["impact"]["omega_a"], 0.0);
  EXPECT_EQ(s["status"], "ok");

  // a collision whose disk crosses more than its radius per step cannot be measured: it says so
  const fs::path fast = dir_ / "fast";
  const Result f = granular("run '" + data_path("good_collision.json") + "' --out '" +
                            fast.string() + "' --set /impact/u_n=1e4");
  ASSERT_EQ(f.code, 0) << f.err;
  const nlohmann::json fs_ = nlohmann::json::parse(file_text(fast / "summary.json"));
  EXPECT_EQ(fs_["status"], "too_fast");
  EXPECT_TRUE(fs_["e_n"].is_null());
}

// issue 9's reproducers through the binary: no crash, exit 2, one line, nothing created
TEST_F(Cli, HostileInputExitsTwoWithOneLine) {
  std::ofstream(dir_ / "long.json")
      << "{\"model\": \"collision\", \"description\": \"" << std::string(50000, 'a');
  const Result r = granular("validate long.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("long.json: invalid JSON at line 1, column ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  const Result big =
      granular("validate '" + data_path("good_collision.json") + "' --set /impact/u_n=1e309");
  EXPECT_EQ(big.code, 2) << big.err;

  // a string that is not UTF-8 validated, then `run` failed writing its outputs
  const Result utf = granular("run '" + data_path("good_collision.json") +
                              "' --out o --set \"$(printf '/description=\\377\\376')\"");
  EXPECT_EQ(utf.code, 2) << utf.err;
  EXPECT_NE(utf.err.find("not valid UTF-8"), std::string::npos) << utf.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));

  // work beyond 64 bits was one step with every packing "ok"
  const Result work = granular("run '" + data_path("good_ensemble.json") +
                               "' --out o --set /integrator/steps_per_collision=1e19");
  EXPECT_EQ(work.code, 2) << work.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

// an output folder that cannot take the outputs is found before anything is computed
TEST_F(Cli, UnwritableOutputFolderIsFoundFirst) {
  std::ofstream(dir_ / "plain_file") << "x";
  const Result r = granular("run '" + data_path("good_collision.json") + "' --out plain_file/out");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "plain_file/out: cannot create the folder: Not a directory\n");
  EXPECT_EQ(r.out, "");  // nothing ran
  if (fs::is_directory("/sys/kernel")) {
    const Result sys =
        granular("run '" + data_path("good_collision.json") + "' --out /sys/kernel/granular_out");
    EXPECT_EQ(sys.code, 2);
    EXPECT_EQ(sys.err.rfind("/sys/kernel/granular_out: cannot create the folder: ", 0), 0u)
        << sys.err;
  }
}

}  // namespace

namespace {

// `--backend cuda` without a device (this machine and CI have none) is bad input: exit 2, a
// clear message, nothing created; an unknown backend likewise.
TEST_F(Cli, CudaBackendWithoutDeviceIsBadInput) {
  const Result cuda =
      granular("run " + data_path("good_ensemble.json") + " --out o --backend cuda");
  if (cuda.code == 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(cuda.code, 2);
  EXPECT_NE(cuda.err.find("--backend cuda: no CUDA device is available"), std::string::npos)
      << cuda.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
  const Result gpu = granular("run " + data_path("good_ensemble.json") + " --out o --backend gpu");
  EXPECT_EQ(gpu.code, 2);
  EXPECT_NE(gpu.err.find("--backend: expected cpu or cuda"), std::string::npos) << gpu.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

}  // namespace

namespace {

// `--resume` needs this case's checkpoint in the output folder: without one, or with one of
// another case, the run is bad input (exit 2, the checkpoint named) and creates nothing new.
TEST_F(Cli, ResumeWithoutMatchingCheckpointIsBadInput) {
  const std::string good = "'" + data_path("good_ensemble.json") + "'";
  const Result none = granular("run " + good + " --out o --resume");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("o/checkpoint.bin: no checkpoint to resume from"), std::string::npos)
      << none.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));

  // an existing folder gains nothing; a checkpoint of another case is refused
  fs::create_directories(dir_ / "o");
  std::ofstream(dir_ / "o" / "energy.csv") << "t\n";
  EXPECT_EQ(granular("run " + good + " --out o --resume").code, 2);
  granular::io::write_checkpoint(dir_ / "o" / "checkpoint.bin",
                                 {"{\"model\":\"other\"}", "cpu", {}, {}},
                                 granular::md::EnsembleState{}, {});
  const Result other = granular("run " + good + " --out o --resume");
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.err.find("o/checkpoint.bin: made by a different case"), std::string::npos)
      << other.err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_ / "o")) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"checkpoint.bin", "energy.csv"}));
  EXPECT_EQ(file_text(dir_ / "o" / "energy.csv"), "t\n");

  // a folder where the checkpoint should be is named
  fs::remove(dir_ / "o" / "checkpoint.bin");
  fs::create_directories(dir_ / "o" / "checkpoint.bin" / "x");
  const Result folder = granular("run " + good + " --out o --resume");
  EXPECT_EQ(folder.code, 2);
  EXPECT_EQ(folder.err, "o/checkpoint.bin: is a folder, not a checkpoint\n");
  const Result fresh = granular("run " + good + " --out o");
  EXPECT_EQ(fresh.code, 2);
  EXPECT_NE(fresh.err.find("--out o: holds an unfinished run of another case"), std::string::npos)
      << fresh.err;
  const Result forced = granular("run " + good + " --out o --force");
  EXPECT_EQ(forced.code, 1);
  EXPECT_NE(forced.err.find("o/checkpoint.bin: cannot remove what an earlier run left: "),
            std::string::npos)
      << forced.err;

  // a bad interval is a usage error
  const Result bad = granular("run " + good + " --out o --checkpoint-interval -1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--checkpoint-interval: expected seconds >= 0"), std::string::npos)
      << bad.err;
}

}  // namespace
