// libFuzzer target over the case loader (`granular validate`'s path): any bytes, parsed as a
// case file, with --set overrides after the first NUL byte (NUL-separated). The loader's
// contract is that bad input throws io::CaseError and nothing else: any other exception, a
// crash, a sanitizer report, a hang (-timeout) or a huge allocation (-rss_limit_mb) is a
// finding. Built with GRANULAR_FUZZ=ON under clang (`make fuzz`, docs/testing.md).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "granular/io/json_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  std::vector<std::string> overrides;
  if (nul != std::string::npos) {
    std::size_t start = nul + 1;
    while (start <= input.size() && overrides.size() < 8) {
      const std::size_t end = std::min(input.find('\0', start), input.size());
      overrides.push_back(input.substr(start, end - start));
      start = end + 1;
    }
  }
  try {
    const nlohmann::json doc = granular::io::parse_json_text(input.substr(0, nul), "fuzz.json");
    const granular::cases::LoadedCase c =
        granular::cases::load_case_json(doc, "fuzz.json", overrides);
    // what `validate` prints comes from the model itself, and its numbers dump as JSON
    std::ostringstream sink;
    granular::cases::Description d(sink);
    c.spec->describe(d);
    static_cast<void>(d.data().dump());
    // the case as run must be writable as JSON (summary.json, the checkpoint's fingerprint)
    static_cast<void>(c.echo.dump());
  } catch (const granular::io::CaseError&) {
    // bad input, reported as it should be
  }
  return 0;
}
