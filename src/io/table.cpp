// The output table writer (include/granular/io/table.hpp).
#include "granular/io/table.hpp"

#include <charconv>
#include <fstream>
#include <stdexcept>

#include "granular/io/json_reader.hpp"

namespace granular::io {

std::string TableSpec::header() const {
  std::string h;
  for (const Column& c : columns) h += (h.empty() ? "" : ",") + c.name;
  return h + '\n';
}

TableSpec TableSpec::without(const std::vector<std::string>& names) const {
  TableSpec t{file, rows, {}};
  for (const Column& c : columns) {
    bool drop = false;
    for (const std::string& n : names) drop = drop || c.name == n;
    if (!drop) t.columns.push_back(c);
  }
  return t;
}

std::string markdown(const TableSpec& spec) {
  std::string s =
      "`" + spec.file + "`: " + spec.rows + ".\n\n| column | unit | meaning |\n|---|---|---|\n";
  for (const Column& c : spec.columns)
    s += "| `" + c.name + "` | " + c.unit + " | " + c.meaning + " |\n";
  return s;
}

std::string round_trip(double x) {
  char text[32];
  const auto r = std::to_chars(text, text + sizeof text, x);
  return std::string(text, r.ptr);
}

RowBuilder& RowBuilder::field(const std::string& text) {
  if (fields_ > 0) row_ += ',';
  row_ += text;
  ++fields_;
  return *this;
}

std::string RowBuilder::take_row() {
  if (fields_ != columns_)
    throw std::logic_error("a row of " + std::to_string(fields_) + " fields in a table of " +
                           std::to_string(columns_) + " columns");
  std::string row = std::move(row_);
  row += '\n';
  row_.clear();
  fields_ = 0;
  return row;
}

namespace {

// The checkpoint's size of a streamed file must be a row's end within the file as it is now.
void check_row_end(const std::filesystem::path& path, std::uint64_t keep) {
  if (keep == 0) return;  // nothing written yet (a file without a header, e.g. a dump)
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size < keep) {
    throw CaseError(path.string(), "",
                    (ec ? "missing (" + ec.message() + ")" : std::to_string(size) + " bytes") +
                        ", the checkpoint needs its first " + std::to_string(keep) +
                        " bytes; cannot resume");
  }
  char last = 0;
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(keep - 1)).get(last);
  if (!in || last != '\n') {
    throw CaseError(path.string(), "",
                    "byte " + std::to_string(keep) +
                        " recorded by the checkpoint does not end a row; cannot resume");
  }
}

}  // namespace

OutputFile open_stream(const std::filesystem::path& path, std::optional<std::uint64_t> keep) {
  if (!keep) return OutputFile(path, OutputFile::Mode::create);
  check_row_end(path, *keep);
  truncate_file(path, *keep);
  return OutputFile(path, OutputFile::Mode::append);
}

namespace {

// A resumed table keeps at least its header: a checkpoint that recorded fewer bytes is damaged.
std::optional<std::uint64_t> kept_with_header(const std::filesystem::path& path,
                                              const TableSpec& spec,
                                              std::optional<std::uint64_t> keep) {
  if (keep && *keep < spec.header().size())
    throw CaseError(path.string(), "",
                    "the checkpoint recorded " + std::to_string(*keep) +
                        " bytes of it, fewer than its header: damaged checkpoint");
  return keep;
}

}  // namespace

TableStream::TableStream(const std::filesystem::path& dir, const TableSpec& spec,
                         std::optional<std::uint64_t> keep)
    : RowBuilder(spec),
      name_(spec.file),
      file_(open_stream(dir / spec.file, kept_with_header(dir / spec.file, spec, keep))) {
  if (!keep) file_.write(spec.header());
}

std::uint64_t TableStream::bytes() {
  file_.flush();
  return file_.size();
}

}  // namespace granular::io
