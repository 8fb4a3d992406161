// Tests for include/granular/io/table.hpp, the one output table writer: numbers read back as
// the same double, rows of the wrong width are refused, a streamed table resumes at a row's
// end, and the docs list every column of every table each model declares
// (GRANULAR_UPDATE_DOCS=1 rewrites the lists from the declarations).
#include "granular/io/table.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "granular/cases/case.hpp"

namespace granular::io {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputTables, NumbersReadBackAsTheSameDouble) {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    const std::string text = round_trip(x);
    const double back = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(std::memcmp(&back, &x, sizeof x), 0) << text;
    // never longer than %.17g needs
    char g17[40];
    std::snprintf(g17, sizeof g17, "%.17g", x);
    EXPECT_LE(text.size(), std::strlen(g17)) << text << " vs " << g17;
    ++checked;
  }
  EXPECT_GT(checked, 190000);
  for (double x : {0.0, -0.0, 0.1, 1e-320, -std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::denorm_min()}) {
    const double back = std::strtod(round_trip(x).c_str(), nullptr);
    EXPECT_EQ(std::memcmp(&back, &x, sizeof x), 0) << round_trip(x);
  }
  EXPECT_EQ(round_trip(0.1), "0.1");
  EXPECT_EQ(round_trip(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(round_trip(-std::numeric_limits<double>::infinity()), "-inf");
}

const TableSpec three{"t.csv", "a test", {{"a", "s", ""}, {"b", "", ""}, {"c", "", ""}}};

TEST(OutputTables, HeaderAndRowsFollowTheDeclaredColumns) {
  TableText t(three);
  t.num(0.5).integer(-3).text("word").end_row();
  t.num(1.0 / 3.0).flag(true).flag(false).end_row();
  EXPECT_EQ(t.str(), "a,b,c\n0.5,-3,word\n0.3333333333333333,1,0\n");
  t.num(1.0).integer(2);
  EXPECT_THROW(t.end_row(), std::logic_error);  // two fields in a table of three
  EXPECT_EQ(three.without({"b"}).header(), "a,c\n");
}

TEST(OutputTables, AStreamResumesAtTheRowItsCheckpointRecorded) {
  const fs::path dir = fs::temp_directory_path() / ("granular_table_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::uint64_t keep = 0;
  {
    TableStream s(dir, three);
    s.num(1).num(2).num(3).end_row();
    keep = s.bytes();
    s.num(4).num(5).num(6).end_row();  // written after the checkpoint: dropped on resume
    s.close();
  }
  {
    TableStream s(dir, three, keep);
    s.num(7).num(8).num(9).end_row();
    s.close();
  }
  EXPECT_EQ(slurp(dir / "t.csv"), "a,b,c\n1,2,3\n7,8,9\n");
  EXPECT_THROW(TableStream(dir, three, keep - 1), std::runtime_error);  // not a row's end
  EXPECT_THROW(TableStream(dir, three, 1000), std::runtime_error);      // beyond the file
  // a checkpoint that recorded less than the header (issue 20: a size of 0) is damaged, and
  // the file is left as it was
  EXPECT_THROW(TableStream(dir, three, 0), std::runtime_error);
  EXPECT_THROW(TableStream(dir, three, 3), std::runtime_error);
  EXPECT_EQ(slurp(dir / "t.csv"), "a,b,c\n1,2,3\n7,8,9\n");
  fs::remove_all(dir);
}

// The page that documents a model's tables.
fs::path docs_of(const std::string& model) {
  const fs::path docs = fs::path(GRANULAR_SOURCE_DIR) / "docs";
  if (model == "packing_ensemble" || model == "collision") return docs / "outputs.md";
  if (model == "wedge_md") return docs / "wedge.md";  // one page for the wedge's two methods
  return docs / (model + ".md");
}

TEST(OutputTables, DocsListEveryColumnOfEveryTable) {
  const bool update = std::getenv("GRANULAR_UPDATE_DOCS") != nullptr;
  int tables = 0;
  for (const cases::Model& m : cases::models()) {
    const fs::path page = docs_of(m.name);
    std::string text = slurp(page);
    for (const TableSpec& t : m.tables()) {
      ++tables;
      const std::string open = "<!-- table: " + t.file + " -->\n", close = "<!-- end table -->\n";
      const std::size_t a = text.find(open);
      ASSERT_NE(a, std::string::npos) << page << " has no block for " << t.file;
      const std::size_t b = text.find(close, a);
      ASSERT_NE(b, std::string::npos) << page << ": the block of " << t.file << " is not closed";
      const std::string want = markdown(t);
      const std::string have = text.substr(a + open.size(), b - a - open.size());
      if (update)
        text.replace(a + open.size(), b - a - open.size(), want);
      else
        EXPECT_EQ(have, want) << page << ": the columns of " << t.file
                              << " differ from their declaration (GRANULAR_UPDATE_DOCS=1)";
      // every declared column has a unit entry and a name fit for a CSV header
      for (const Column& c : t.columns) EXPECT_EQ(c.name.find(','), std::string::npos) << c.name;
    }
    if (update) std::ofstream(page, std::ios::binary) << text;
  }
  EXPECT_EQ(tables, 18);
}

}  // namespace
}  // namespace granular::io
