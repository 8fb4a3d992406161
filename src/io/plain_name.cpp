#include "granular/io/plain_name.hpp"

#include <algorithm>
#include <system_error>

namespace granular::io {

namespace fs = std::filesystem;

std::string plain_name_defect(const std::string& name) {
  if (name.empty()) return "an empty name";
  if (name.size() > 1024) return "a name of " + std::to_string(name.size()) + " bytes";
  if (name.front() == '/') return "an absolute path, not a name inside the folder";
  std::size_t from = 0;
  while (from <= name.size()) {
    const std::size_t slash = std::min(name.find('/', from), name.size());
    const std::string part = name.substr(from, slash - from);
    if (part.empty()) return "a name with an empty part ('//' or a trailing '/')";
    if (part == "." || part == "..") return "a name with a part '" + part + "', not a plain name";
    if (part.size() > 255) return "a name with a part of " + std::to_string(part.size()) + " bytes";
    for (const char c : part)
      if (c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        return "a name with a backslash or a control character";
    from = slash + 1;
  }
  return "";
}

std::string outside_folder(const fs::path& dir, const std::string& name) {
  const std::string defect = plain_name_defect(name);
  if (!defect.empty()) return defect;
  // links followed as far as the path exists; what does not exist yet cannot lead anywhere
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec) return "its folder cannot be resolved: " + ec.message();
  const fs::path target = fs::weakly_canonical(base / name, ec);
  if (ec) return "cannot be resolved: " + ec.message();
  const fs::path inside = target.lexically_relative(base);
  if (inside.empty() || *inside.begin() == "..")
    return "a link on the way leads out of the folder (to " + target.string() + ")";
  return "";
}

}  // namespace granular::io
