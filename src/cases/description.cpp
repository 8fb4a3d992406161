// A case's description as text and data in one pass (include/granular/cases/description.hpp).
#include "granular/cases/description.hpp"

#include <cmath>
#include <stdexcept>

#include "granular/io/output.hpp"

namespace granular::cases {

namespace {

using Json = nlohmann::ordered_json;

// The keys granular.Case.describe() adds beside the groups (docs/python.md).
bool reserved(const std::string& name) {
  return name == "model" || name == "notes" || name == "text" || name == "units";
}

}  // namespace

void Description::group(const std::string& name) {
  if (name.empty() || reserved(name))
    throw std::logic_error("Description: \"" + name + "\" cannot name a group");
  at_ = Json::json_pointer() / name;
  if (!data_.contains(at_)) data_[at_] = Json::object();
}

void Description::group(const std::string& name, const std::string& sub) {
  group(name);
  at_ /= sub;
  if (!data_.contains(at_)) data_[at_] = Json::object();
}

std::string Description::record(const std::string& key, Json value, bool append, const char* unit,
                                const char* format, double scale, std::string text) {
  if (at_.empty()) throw std::logic_error("Description: \"" + key + "\" recorded before group()");
  const Json::json_pointer where = at_ / key;
  Printed printed;
  printed.format = format;
  printed.scale = scale;
  printed.text = std::move(text);
  if (append) {
    Json& list = data_[where];
    if (!list.is_null() && !list.is_array())
      throw std::logic_error("Description: \"" + where.to_string() + "\" is not a list");
    list.push_back(std::move(value));
    printed.where = where / std::to_string(list.size() - 1);
  } else {
    if (data_.contains(where))
      throw std::logic_error("Description: \"" + where.to_string() + "\" recorded twice");
    data_[where] = std::move(value);
    printed.where = where;
  }
  if (unit) units_[where] = unit;
  printed_.push_back(std::move(printed));
  return printed_.back().text;
}

std::string Description::number(const std::string& key, double v, const char* format,
                                const char* unit, double scale) {
  return record(key, std::isfinite(v) ? Json(v) : Json(nullptr), false, unit, format, scale,
                io::format_value(format, v * scale));
}

std::string Description::item(const std::string& key, double v, const char* format,
                              const char* unit) {
  return record(key, std::isfinite(v) ? Json(v) : Json(nullptr), true, unit, format, 1.0,
                io::format_value(format, v));
}

std::string Description::count(const std::string& key, std::int64_t n, const char* unit) {
  return record(key, n, false, unit, "%lld", 1.0, std::to_string(n));
}

std::string Description::large_count(const std::string& key, double n, const char* format,
                                     const char* unit) {
  return record(key, Json(io::json_count(n)), false, unit, format, 1.0,
                io::format_value(format, n));
}

std::string Description::word(const std::string& key, const std::string& s) {
  return record(key, s, false, nullptr, "", 1.0, s);
}

std::string Description::word_item(const std::string& key, const std::string& s) {
  return record(key, s, true, nullptr, "", 1.0, s);
}

std::string Description::absent(const std::string& key, const std::string& text) {
  return record(key, nullptr, false, nullptr, "", 1.0, text);
}

}  // namespace granular::cases
