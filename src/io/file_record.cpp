#include "granular/io/file_record.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "granular/io/checksum.hpp"
#include "granular/io/file.hpp"

namespace granular::io {

namespace fs = std::filesystem;

std::optional<std::uint64_t> file_checksum(const fs::path& path,
                                           std::optional<std::uint64_t> bytes) {
  if (!not_a_regular_file(path).empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  Checksum sum;
  std::uint64_t left = bytes ? *bytes : UINT64_MAX;
  std::vector<char> block(1 << 16);
  while (left > 0) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), left));
    in.read(block.data(), static_cast<std::streamsize>(want));
    const std::size_t got = static_cast<std::size_t>(in.gcount());
    sum.add(block.data(), got);
    left -= got;
    if (got < want) break;
  }
  if (bytes && left > 0) return std::nullopt;  // shorter than the prefix asked for
  return sum.value();
}

std::string checksum_text(std::uint64_t sum) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, sum);
  return text;
}

nlohmann::json record_files(const fs::path& dir, const std::vector<std::string>& names) {
  nlohmann::json files = nlohmann::json::object();
  for (const std::string& name : names) {
    const fs::path path = dir / name;
    const std::optional<std::uint64_t> sum = file_checksum(path);
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!sum || ec) throw FileError(path.string() + ": cannot read back to record it");
    files[name] = {{"bytes", static_cast<std::uint64_t>(size)}, {"checksum", checksum_text(*sum)}};
  }
  return files;
}

std::vector<std::string> files_under(const fs::path& dir, const std::string& sub) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(dir / sub, ec)) return names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir / sub, ec))
    if (e.is_regular_file(ec)) names.push_back(sub + "/" + e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string files_differ(const fs::path& dir, const nlohmann::json& files) {
  if (!files.is_object()) return "the file records are not an object";
  for (const auto& [name, record] : files.items()) {
    const fs::path path = dir / name;
    const std::string why = not_a_regular_file(path);
    if (!why.empty()) return name + ": " + why;
    if (!record.is_object() || !record.contains("bytes") || !record.contains("checksum") ||
        !record["bytes"].is_number_unsigned() || !record["checksum"].is_string())
      return name + ": the summary's record of it is damaged";
    std::error_code ec;
    const std::uint64_t size = fs::file_size(path, ec);
    const std::uint64_t recorded = record["bytes"].get<std::uint64_t>();
    if (ec || size != recorded)
      return name + ": " + std::to_string(size) + " bytes, the summary recorded " +
             std::to_string(recorded) + " (cut or grown since it was written)";
    const std::optional<std::uint64_t> sum = file_checksum(path);
    if (!sum || checksum_text(*sum) != record["checksum"].get<std::string>())
      return name + ": other bytes than the summary recorded (checksum " +
             (sum ? checksum_text(*sum) : std::string("unreadable")) + ", recorded " +
             record["checksum"].get<std::string>() + ")";
  }
  return "";
}

}  // namespace granular::io
