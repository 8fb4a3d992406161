// One output table writer (docs/outputs.md): the columns of a CSV file are declared once, with
// their units and meanings, and give the file's header, the checks on its rows and the key
// lists of the docs (`markdown`). Numbers are written so that they read back as the same
// double (the shortest such text), integers and words as they are.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/table.hpp is host-only"
#endif

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "granular/io/file.hpp"

namespace granular::io {

// A column: its name (the CSV header), its unit ("-" for a pure number, "" for words and
// counts) and what it holds.
struct Column {
  std::string name;
  std::string unit;
  std::string meaning;
};

// The columns of one output file.
struct TableSpec {
  std::string file;  // e.g. "pendulum.csv"
  std::string rows;  // what one row is, for the docs ("one row per output time")
  std::vector<Column> columns;

  // "name1,name2,...\n"
  std::string header() const;
  // The same table without the named columns (columns written only in some runs).
  TableSpec without(const std::vector<std::string>& names) const;
};

// The docs' key list of a table: a heading line and a Markdown table (column, unit, meaning).
std::string markdown(const TableSpec& spec);

// The shortest text that reads back (strtod) as exactly x; "nan", "inf", "-inf" otherwise.
std::string round_trip(double x);

// The fields of one row, checked against the spec's column count when the row ends.
class RowBuilder {
 public:
  RowBuilder& num(double x) { return field(round_trip(x)); }
  RowBuilder& integer(long long x) { return field(std::to_string(x)); }
  RowBuilder& text(std::string_view s) { return field(std::string(s)); }
  RowBuilder& flag(bool b) { return field(b ? "1" : "0"); }
  // Ends the row: its field count must be the table's.
  virtual void end_row() = 0;

 protected:
  ~RowBuilder() = default;
  explicit RowBuilder(const TableSpec& spec) : columns_(spec.columns.size()) {}
  // The row's text with its newline; throws std::logic_error on a wrong field count.
  std::string take_row();

 private:
  RowBuilder& field(const std::string& text);
  std::size_t columns_;
  std::size_t fields_ = 0;
  std::string row_;
};

// A whole table built in memory (written atomically by the caller).
class TableText : public RowBuilder {
 public:
  explicit TableText(const TableSpec& spec) : RowBuilder(spec), text_(spec.header()) {}
  void end_row() override { text_ += take_row(); }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// A file a resumable run streams to: created afresh, or, resuming, cut back to the `keep` bytes
// its checkpoint recorded (they must end a line of the file as found) and opened for appending.
// Throws FileError, or std::runtime_error for a file that does not fit the checkpoint.
OutputFile open_stream(const std::filesystem::path& path, std::optional<std::uint64_t> keep);

// A table streamed to its file row by row, for long runs. A resumed stream is cut back to the
// size a checkpoint recorded (`keep` bytes), which must end a row, and appended to. Failures
// throw FileError (or std::runtime_error for a file that does not fit the checkpoint).
class TableStream : public RowBuilder {
 public:
  TableStream(const std::filesystem::path& dir, const TableSpec& spec,
              std::optional<std::uint64_t> keep = std::nullopt);
  void end_row() override { file_.write(take_row()); }
  const std::string& name() const { return name_; }
  // Bytes written so far, handed to the OS first (a checkpoint records them).
  std::uint64_t bytes();
  void flush() { file_.flush(); }
  void close() { file_.close(); }

 private:
  std::string name_;
  OutputFile file_;
};

}  // namespace granular::io
