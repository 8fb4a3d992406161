#include "granular/io/json_reader.hpp"

#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

namespace granular::io {

namespace {

std::string compose(const std::string& file, const std::string& pointer,
                    const std::string& detail) {
  std::string s;
  if (!file.empty()) s += file + ": ";
  if (!pointer.empty()) s += pointer + ": ";
  return s + detail;
}

const char* type_name(const nlohmann::json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  return "a number";
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

}  // namespace

CaseError::CaseError(const std::string& file, const std::string& pointer, const std::string& detail)
    : std::runtime_error(compose(file, pointer, detail)),
      file_(file),
      pointer_(pointer),
      detail_(detail) {}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseError(path, "", "cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw CaseError(path, "", "cannot read");
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann says "[json.exception.parse_error.101] parse error at line L, column C: why"
    const std::string what = e.what();
    static const std::regex where(R"(at line (\d+), column (\d+): (.*))");
    std::smatch m;
    if (std::regex_search(what, m, where))
      throw CaseError(
          path, "",
          "invalid JSON at line " + m[1].str() + ", column " + m[2].str() + ": " + m[3].str());
    throw CaseError(path, "", "invalid JSON at byte " + std::to_string(e.byte) + ": " + what);
  }
}

std::string pointer_token(const std::string& key) {
  std::string s;
  for (char c : key) {
    if (c == '~')
      s += "~0";
    else if (c == '/')
      s += "~1";
    else
      s += c;
  }
  return s;
}

std::string format_number(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

double as_number(const nlohmann::json& v, const std::string& file, const std::string& pointer,
                 Bound bound) {
  if (!v.is_number()) throw CaseError(file, pointer, "must be a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw CaseError(file, pointer, "must be a finite number");
  if (bound == Bound::non_negative && !(x >= 0.0)) throw CaseError(file, pointer, "must be >= 0");
  if (bound == Bound::positive && !(x > 0.0)) throw CaseError(file, pointer, "must be > 0");
  return x;
}

long long as_integer(const nlohmann::json& v, const std::string& file, const std::string& pointer,
                     long long at_least) {
  long long n = 0;
  if (v.is_number_integer()) {
    // number_unsigned above LLONG_MAX would wrap
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX))
      throw CaseError(file, pointer, "must be at most " + std::to_string(INT_MAX));
    n = v.get<long long>();
  } else if (v.is_number_float()) {
    // 20.0 is accepted as 20
    const double x = v.get<double>();
    if (!std::isfinite(x) || std::floor(x) != x)
      throw CaseError(file, pointer, "must be an integer");
    if (std::fabs(x) > INT_MAX)
      throw CaseError(file, pointer, "must be at most " + std::to_string(INT_MAX));
    n = static_cast<long long>(x);
  } else {
    throw CaseError(file, pointer, "must be an integer");
  }
  if (n > INT_MAX) throw CaseError(file, pointer, "must be at most " + std::to_string(INT_MAX));
  if (n < at_least) throw CaseError(file, pointer, "must be >= " + std::to_string(at_least));
  return n;
}

JsonObject::JsonObject(nlohmann::json& value, std::string file, std::string pointer)
    : json_(&value), file_(std::move(file)), pointer_(std::move(pointer)) {
  if (!value.is_object())
    throw CaseError(file_, pointer_.empty() ? "" : pointer_,
                    pointer_.empty() ? "the case must be a JSON object"
                                     : std::string("must be an object, not ") + type_name(value));
}

std::string JsonObject::pointer_of(const std::string& key) const {
  return pointer_ + "/" + pointer_token(key);
}

void JsonObject::fail(const std::string& key, const std::string& detail) const {
  throw CaseError(file_, key.empty() ? pointer_ : pointer_of(key), detail);
}

void JsonObject::allow_only(std::initializer_list<const char*> allowed) const {
  for (const auto& item : json_->items()) {
    bool known = false;
    for (const char* a : allowed) known = known || item.key() == a;
    if (!known) fail(item.key(), "unknown key");
  }
}

void JsonObject::forbid(const std::string& key, const std::string& why) const {
  if (has(key)) fail(key, why);
}

bool JsonObject::has(const std::string& key) const { return json_->contains(key); }

nlohmann::json& JsonObject::required(const std::string& key) const {
  auto it = json_->find(key);
  if (it == json_->end()) fail(key, "required key is missing");
  return *it;
}

nlohmann::json& JsonObject::value(const std::string& key) const { return required(key); }

double JsonObject::number(const std::string& key, Bound bound) const {
  return as_number(required(key), file_, pointer_of(key), bound);
}

long long JsonObject::integer(const std::string& key, long long at_least) const {
  return as_integer(required(key), file_, pointer_of(key), at_least);
}

std::string JsonObject::string(const std::string& key) const {
  const nlohmann::json& v = required(key);
  if (!v.is_string()) fail(key, "must be a string");
  return v.get<std::string>();
}

JsonObject JsonObject::object(const std::string& key) const {
  return JsonObject(required(key), file_, pointer_of(key));
}

double JsonObject::number_or(const std::string& key, double fallback, Bound bound) const {
  if (!has(key)) (*json_)[key] = fallback;
  return number(key, bound);
}

long long JsonObject::integer_or(const std::string& key, long long fallback,
                                 long long at_least) const {
  if (!has(key)) (*json_)[key] = fallback;
  return integer(key, at_least);
}

std::uint64_t JsonObject::unsigned_or(const std::string& key, std::uint64_t fallback) const {
  if (!has(key)) (*json_)[key] = fallback;
  const nlohmann::json& v = required(key);
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) fail(key, "must be >= 0");
  if (v.is_number_float()) {
    const double x = v.get<double>();
    if (std::floor(x) != x) fail(key, "must be an integer");
    if (x < 0) fail(key, "must be >= 0");
    if (x >= 18446744073709551616.0) fail(key, "must be less than 2^64");
    return static_cast<std::uint64_t>(x);
  }
  fail(key, "must be an integer");
}

std::string JsonObject::string_or(const std::string& key, const std::string& fallback) const {
  if (!has(key)) (*json_)[key] = fallback;
  return string(key);
}

JsonObject JsonObject::object_or_empty(const std::string& key) const {
  if (!has(key)) (*json_)[key] = nlohmann::json::object();
  return object(key);
}

std::string JsonObject::choice(const std::string& key, const std::vector<std::string>& options,
                               const std::string& what) const {
  const std::string s = string(key);
  for (const auto& o : options)
    if (s == o) return s;
  fail(key, "unknown " + what + " \"" + s + "\" (expected one of: " + join(options) + ")");
}

std::string JsonObject::choice_or(const std::string& key, const std::vector<std::string>& options,
                                  const std::string& what, const std::string& fallback) const {
  if (!has(key)) (*json_)[key] = fallback;
  return choice(key, options, what);
}

}  // namespace granular::io
