// `granular cases` (the shipped cases: list, show, copy) and `granular schema` (the case files'
// JSON Schema): what a user who installed granular without its source reads before a run.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "granular/cases/schema.hpp"
#include "granular/cases/shipped.hpp"
#include "granular/io/file.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/suggest.hpp"

namespace granular::cli {

namespace {

namespace fs = std::filesystem;
using io::CaseError;

const cases::ShippedCase& shipped(const std::string& name) {
  const cases::ShippedCase* c = cases::find_shipped_case(name);
  if (!c)
    throw CaseError("", "cases",
                    "no shipped case " + io::quoted(name) +
                        io::did_you_mean(name, cases::shipped_case_names()) +
                        " (granular cases lists them)");
  return *c;
}

// A description cut to `width` bytes, at a UTF-8 character's boundary, to fit beside the name.
std::string headline(const std::string& description, std::size_t width) {
  if (description.size() <= width) return io::one_line(description);
  std::size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(description[cut]) & 0xC0) == 0x80) --cut;
  return io::one_line(description.substr(0, cut)) + "...";
}

int list_cases() {
  std::size_t width = 0;
  for (const cases::ShippedCase& c : cases::shipped_cases())
    width = std::max(width, std::string(c.name).size());
  for (const cases::ShippedCase& c : cases::shipped_cases()) {
    const std::string name = c.name;
    std::cout << name << std::string(width + 2 - name.size(), ' ')
              << headline(cases::shipped_case_description(c), width < 60 ? 96 - width : 36) << "\n";
  }
  std::cout << "\n"
            << cases::shipped_cases().size()
            << " shipped cases: granular run NAME runs one, granular cases show NAME prints it,"
               " granular cases copy NAME [DIR] writes DIR/NAME.json to edit\n";
  return kSuccess;
}

int copy_case(const std::string& name, const fs::path& dir, bool force) {
  const cases::ShippedCase& c = shipped(name);
  const fs::path file = dir / (std::string(c.name) + ".json");
  std::error_code ec;
  if (fs::exists(file, ec) && !force)
    throw CaseError(file.string(), "", "exists already (--force replaces it)");
  fs::create_directories(dir, ec);
  if (ec) throw CaseError(dir.string(), "", "cannot create the folder: " + ec.message());
  io::write_file_atomic(file, c.text);
  std::cout << file.string() << "\n";
  return kSuccess;
}

}  // namespace

int cases_command(const std::vector<std::string>& args) {
  std::vector<std::string> words;
  bool force = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--force") {
      force = true;
    } else if (!args[i].empty() && args[i][0] == '-') {
      throw CaseError("", "cases",
                      "unknown option " + io::quoted(args[i]) +
                          io::did_you_mean(args[i], command_options("cases")));
    } else {
      words.push_back(args[i]);
    }
  }
  if (words.empty()) return list_cases();
  const std::string& what = words[0];
  if (what == "show" && words.size() == 2) {
    std::cout << shipped(words[1]).text;
    return kSuccess;
  }
  if (what == "copy" && (words.size() == 2 || words.size() == 3))
    return copy_case(words[1], words.size() == 3 ? fs::path(words[2]) : fs::path("."), force);
  throw CaseError("", "cases",
                  "expected no argument, show NAME, or copy NAME [DIR] [--force]; got " +
                      io::quoted(what) + io::did_you_mean(what, {"show", "copy"}));
}

int schema_command(const std::vector<std::string>& args) {
  if (args.size() > 2) throw CaseError("", "schema", "expected at most one MODEL");
  if (args.size() == 2 && !args[1].empty() && args[1][0] == '-')
    throw CaseError("", "schema", "unknown option " + io::quoted(args[1]));
  std::cout << cases::case_schema(args.size() == 2 ? args[1] : "").dump(2) << "\n";
  return kSuccess;
}

}  // namespace granular::cli
