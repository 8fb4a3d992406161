#include "granular/cases/shipped.hpp"

#include "granular/io/json_reader.hpp"

namespace granular::cases {

const ShippedCase* find_shipped_case(const std::string& name) {
  const std::string stem = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0
                               ? name.substr(0, name.size() - 5)
                               : name;
  for (const ShippedCase& c : shipped_cases())
    if (stem == c.name) return &c;
  return nullptr;
}

std::vector<std::string> shipped_case_names() {
  std::vector<std::string> names;
  for (const ShippedCase& c : shipped_cases()) names.emplace_back(c.name);
  return names;
}

nlohmann::json shipped_case_json(const ShippedCase& c) {
  return io::parse_json_text(c.text, std::string(c.name) + ".json");
}

std::string shipped_case_description(const ShippedCase& c) {
  const nlohmann::json doc = shipped_case_json(c);
  const auto it = doc.find("description");
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace granular::cases
