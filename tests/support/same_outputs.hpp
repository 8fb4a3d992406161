// The outputs of a split run (shards merged, or ranks of an MPI run) against the single run's
// (docs/outputs.md, "Shards"): every file byte-identical, the snapshots too, and summary.json
// equal apart from the keys a run's timing and machine decide.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/cli_scratch.hpp"

namespace granular::test {

// The keys of summary.json a run's timing and machine decide (provenance: its date, host and
// command line).
inline const char* const run_dependent[] = {"wall_time_s", "advance_time_s", "particle_steps_per_s",
                                            "threads", "provenance"};

// The files of dir, sorted, without run.log (a run's own progress, dates and command line).
inline std::vector<std::string> sorted_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename() != "run.log") names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// `b` holds exactly the files of `a` (the demo's tables, its snapshots, summary.json), the same
// bytes, and the same summary apart from run_dependent; `packings` in the summary.
inline void expect_same_outputs(const std::filesystem::path& a, const std::filesystem::path& b,
                                std::size_t packings) {
  const std::vector<std::string> names = sorted_names(a);
  ASSERT_EQ(names, sorted_names(b)) << b;  // no shard or rank folders left either
  EXPECT_EQ(names, (std::vector<std::string>{"angles.csv", "disks.csv", "energy.csv", "snapshots",
                                             "summary.json"}));
  for (const std::string& name : names) {
    if (name == "summary.json" || name == "snapshots") continue;
    const std::string text = file_text(a / name);
    EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 2) << name;
    EXPECT_TRUE(text == file_text(b / name)) << b / name << " differs";
  }
  // the demo photographs one packing: its files come from the shard or rank that ran it
  const std::vector<std::string> frames = sorted_names(a / "snapshots");
  EXPECT_EQ(frames, sorted_names(b / "snapshots"));
  EXPECT_FALSE(frames.empty());
  for (const std::string& name : frames) {
    EXPECT_TRUE(file_text(a / "snapshots" / name) == file_text(b / "snapshots" / name)) << name;
  }
  nlohmann::json sa = nlohmann::json::parse(file_text(a / "summary.json"));
  nlohmann::json sb = nlohmann::json::parse(file_text(b / "summary.json"));
  for (const char* key : run_dependent) {
    EXPECT_TRUE(sa.contains(key) && sb.contains(key)) << key;
    sa.erase(key);
    sb.erase(key);
  }
  EXPECT_EQ(sa.dump(), sb.dump()) << b;
  EXPECT_EQ(sb["packings"].size(), packings);
}

}  // namespace granular::test
