// libFuzzer target over a registry of stated results (`granular reproduce`'s input, issue 32):
// any bytes, parsed as a registry, checked whole and planned at both scales, and every
// expression of every entry evaluated on files held in memory. The contract: a bad registry
// throws io::CaseError, an expression that cannot be evaluated reproduce::ExpressionError, and
// nothing else; a crash, a sanitizer report, a hang (-timeout) or a huge allocation is a
// finding. Built with GRANULAR_FUZZ=ON under clang (`make fuzz`, docs/testing.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "granular/io/json_reader.hpp"
#include "granular/reproduce/expression.hpp"
#include "granular/reproduce/plan.hpp"

namespace {

using granular::reproduce::ExpressionError;
using granular::reproduce::FileReader;
using granular::reproduce::Names;
using granular::reproduce::Value;
using ojson = nlohmann::ordered_json;

// What the expressions read: any file holds the same few numbers.
FileReader memory_files() {
  FileReader files;
  files.json = [](const std::string&, const std::string&) {
    return Value::of_array({Value::of(0.5), Value::of(2.0), Value::of(-1.0)});
  };
  files.column = [](const std::string&, const std::string&) {
    return Value::of_array({Value::of(1.0), Value::of(0.0), Value::of(3.0)});
  };
  return files;
}

void evaluate(const ojson& text, Names& names, const FileReader& files) {
  if (!text.is_string()) return;
  try {
    names["value"] = granular::reproduce::evaluate(text.get<std::string>(), names, files);
  } catch (const ExpressionError&) {
    // an expression that cannot be evaluated: its result fails
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  // the registry sits in the project's papers/, so its case paths resolve to the shipped cases
  const std::string registry = std::string(GRANULAR_SOURCE_DIR) + "/papers/fuzz.json";
  try {
    const ojson doc = granular::io::parse_ordered_json_text(input, registry);
    for (const auto scale : {granular::reproduce::Scale::quick, granular::reproduce::Scale::full}) {
      const granular::reproduce::Plan plan =
          granular::reproduce::plan_of(doc, registry, scale, {}, {});
      static_cast<void>(granular::reproduce::distinct_runs(plan));
      const FileReader files = memory_files();
      for (const granular::reproduce::Entry& e : plan.entries) {
        const ojson& m = e.spec["measure"];
        if (!m.contains("compute")) continue;
        const ojson& c = m["compute"];
        Names names{{"quick", Value::of_bool(true)}};
        // (held: items() of a temporary would dangle)
        const ojson let = c.value("let", ojson::object());
        const ojson require = c.value("require", ojson::array());
        for (const auto& [name, expr] : let.items()) evaluate(expr, names, files);
        for (const char* key : {"value", "stderr", "pass"})
          if (c.contains(key)) evaluate(c[key], names, files);
        for (const ojson& expr : require) evaluate(expr, names, files);
      }
    }
  } catch (const granular::io::CaseError&) {
    // a bad registry, refused as it should be
  }
  return 0;
}
