#include "granular/io/json_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "granular/io/input_file.hpp"
#include "granular/io/key_record.hpp"
#include "granular/io/suggest.hpp"

namespace granular::io {

namespace {

std::string compose(const std::string& file, const std::string& pointer,
                    const std::string& detail) {
  std::string s;
  if (!file.empty()) s += file + ": ";
  if (!pointer.empty()) s += pointer + ": ";
  // whatever a user typed may be in it: the message stays one line
  return one_line(s + detail);
}

// Position of byte `offset` of `text` as 1-based line and column.
struct TextPosition {
  std::size_t line;
  std::size_t column;
};

TextPosition position_of(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  TextPosition at{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

// nlohmann's reason without its "[json.exception...] parse error at line L, column C: " prefix
// and with its quoted token cut short.
std::string parse_reason(const std::string& what) {
  std::string reason = what;
  if (!reason.empty() && reason[0] == '[') {
    const std::size_t close = reason.find("] ");
    if (close != std::string::npos) reason.erase(0, close + 2);
  }
  const std::string at_line = "parse error at line ";
  if (reason.compare(0, at_line.size(), at_line) == 0) {
    const std::size_t colon = reason.find(": ");
    if (colon != std::string::npos) reason.erase(0, colon + 2);
  }
  // the quoted token ("last read: '...'", "parsing '...'") may be a whole long string
  const std::size_t open = reason.find('\'');
  const std::size_t close = reason.rfind('\'');
  if (open != std::string::npos && close > open) {
    reason = reason.substr(0, open) + quoted(reason.substr(open + 1, close - open - 1)) +
             reason.substr(close + 1);
  }
  return reason;
}

// Builds the document as nlohmann's DOM parser does and keeps the first error's byte offset,
// which its exceptions carry for syntax errors but not for numbers out of range. Stops at the
// first object or array nested deeper than max_depth (nlohmann's parser itself does not recurse,
// but what walks the document afterwards does).
template <class Json>
class LocatingParser : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

 public:
  LocatingParser(Json& root, int max_depth) : Base(root, false), max_depth_(max_depth) {}

  template <class Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception& ex) {
    failed = true;
    offset = position > 0 ? position - 1 : 0;  // position counts the offending byte
    reason = parse_reason(ex.what());
    out_of_range = std::is_same_v<Exception, typename Json::out_of_range>;
    return false;
  }

  bool start_object(std::size_t elements) { return deeper() && Base::start_object(elements); }
  bool start_array(std::size_t elements) { return deeper() && Base::start_array(elements); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }

  bool failed = false;
  bool too_deep = false;
  bool out_of_range = false;
  std::size_t offset = 0;
  std::string reason;

 private:
  bool deeper() {
    if (++depth_ <= max_depth_) return true;
    failed = too_deep = true;
    reason = "nested deeper than " + std::to_string(max_depth_) + " levels";
    return false;
  }

  int max_depth_;
  int depth_ = 0;
};

// Byte offset of the first '{' or '[' (outside strings) that opens nesting level max_depth + 1.
std::size_t offset_of_depth(const std::string& text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\')
        ++i;
      else if (ch == '"')
        in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      if (++depth > max_depth) return i;
    } else if (ch == '}' || ch == ']') {
      --depth;
    }
  }
  return text.size();
}

// Where to cut `text` to at most max_chars bytes, at a character boundary (not inside a UTF-8
// sequence); its size when it is short enough.
std::size_t cut_point(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text.size();
  std::size_t end = max_chars;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

// What follows a text cut at `end`: "... (N bytes)", or nothing when it was not cut.
std::string elision(const std::string& text, std::size_t end) {
  return end == text.size() ? "" : "... (" + std::to_string(text.size()) + " bytes)";
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

nlohmann::json read_json_file(const std::string& path, std::uint64_t max_bytes) {
  return parse_json_text(read_input_file(path, max_bytes), path);
}

nlohmann::ordered_json read_ordered_json_file(const std::string& path, std::uint64_t max_bytes) {
  return parse_ordered_json_text(read_input_file(path, max_bytes), path);
}

namespace {

// parse_json for either kind of document
template <class Json>
BasicJsonParse<Json> parse_as(const std::string& text, int max_depth) {
  BasicJsonParse<Json> out;
  LocatingParser<Json> parser(out.doc, max_depth);
  Json::sax_parse(text, &parser);
  out.ok = !parser.failed;
  if (out.ok) return out;
  out.too_deep = parser.too_deep;
  out.out_of_range = parser.out_of_range;
  const TextPosition at =
      position_of(text, parser.too_deep ? offset_of_depth(text, max_depth) : parser.offset);
  out.line = at.line;
  out.column = at.column;
  out.reason = parser.reason;
  out.doc = nullptr;
  return out;
}

template <class Json>
Json parse_text_as(const std::string& text, const std::string& file) {
  BasicJsonParse<Json> p = parse_as<Json>(text, max_json_depth);
  if (!p.ok)
    throw CaseError(file, "",
                    "invalid JSON at line " + std::to_string(p.line) + ", column " +
                        std::to_string(p.column) + ": " + p.reason);
  return std::move(p.doc);
}

}  // namespace

JsonParse parse_json(const std::string& text, int max_depth) {
  return parse_as<nlohmann::json>(text, max_depth);
}

nlohmann::json parse_json_text(const std::string& text, const std::string& file) {
  return parse_text_as<nlohmann::json>(text, file);
}

nlohmann::ordered_json parse_ordered_json_text(const std::string& text, const std::string& file) {
  return parse_text_as<nlohmann::ordered_json>(text, file);
}

bool is_valid_utf8(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    std::size_t extra = 0;
    unsigned min_code = 0;
    unsigned code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, min_code = 0x80, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, min_code = 0x800, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, min_code = 0x10000, code = c & 0x07;
    } else {
      return false;
    }
    if (n - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      code = (code << 6) | (s[i + k] & 0x3F);
    }
    // overlong forms, surrogates and code points beyond Unicode are not UTF-8
    if (code < min_code || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto hex = [&](unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      hex(c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // a whole UTF-8 sequence is kept, a stray byte is escaped
      std::size_t len = (c & 0xE0) == 0xC0   ? 2
                        : (c & 0xF0) == 0xE0 ? 3
                        : (c & 0xF8) == 0xF0 ? 4
                                             : 1;
      if (len > 1 && i + len <= text.size() && is_valid_utf8(text.substr(i, len))) {
        out += text.substr(i, len);
        i += len;
        continue;
      }
      hex(c);
    }
    ++i;
  }
  return out;
}

std::string excerpt(const std::string& text, std::size_t max_chars) {
  const std::size_t end = cut_point(text, max_chars);
  return one_line(text.substr(0, end)) + elision(text, end);
}

std::string quoted(const std::string& text, std::size_t max_chars) {
  const std::size_t end = cut_point(text, max_chars);
  return "\"" + one_line(text.substr(0, end)) + "\"" + elision(text, end);
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

std::string format_at_most(double limit, double than) {
  if (!std::isfinite(limit) || limit <= 0.0) return format_number(limit);
  for (int digits = 3; digits <= 17; ++digits) {
    // round toward zero at `digits` significant digits
    const double scale = std::pow(10.0, std::floor(std::log10(limit)) - (digits - 1));
    const std::string text = format_number(std::floor(limit / scale) * scale, digits);
    if (std::strtod(text.c_str(), nullptr) <= limit && text != format_number(than, digits))
      return text;
  }
  return format_number(limit, 17);
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

namespace {

// What the accessors below report to a KeyRecording (io/key_record.hpp).
KeyRead number_read(Bound bound, bool required) {
  KeyRead r(KeyKind::number, required);
  r.positive = bound == Bound::positive;
  r.non_negative = bound == Bound::non_negative;
  return r;
}

KeyRead integer_read(long long at_least, bool required) {
  KeyRead r(KeyKind::integer, required);
  r.at_least = at_least;
  return r;
}

KeyRead choice_read(const std::vector<std::string>& options, bool required) {
  KeyRead r(KeyKind::choice, required);
  r.options = options;
  return r;
}

KeyRead with_fallback(KeyRead r, nlohmann::json fallback) {
  r.fallback = std::move(fallback);
  return r;
}

}  // namespace

JsonObject::JsonObject(nlohmann::json& value, std::string file, std::string pointer)
    : json_(&value), file_(std::move(file)), pointer_(std::move(pointer)) {
  if (!value.is_object())
    throw CaseError(file_, pointer_.empty() ? "" : pointer_,
                    pointer_.empty() ? "the case must be a JSON object"
                                     : std::string("must be an object, not ") + type_name(value));
  // a document's root begins a load; every object read is recorded, even one with no key
  KeyRecording* r = active_key_recording();
  if (r && pointer_.empty()) r->loads.emplace_back();
  recorded();
}

ObjectRead* JsonObject::recorded() const {
  KeyRecording* r = active_key_recording();
  return r && !r->loads.empty() ? &r->loads.back()[schema_pointer(pointer_)] : nullptr;
}

void JsonObject::record(const std::string& key, const KeyRead& read) const {
  if (ObjectRead* object = recorded()) {
    const auto [at, fresh] = object->keys.emplace(key, read);
    if (!fresh) merge_key_read(at->second, read);
  }
}

std::string JsonObject::pointer_of(const std::string& key) const {
  return pointer_ + "/" + pointer_token(key);
}

void JsonObject::fail(const std::string& key, const std::string& detail) const {
  throw CaseError(file_, key.empty() ? pointer_ : pointer_of(key), detail);
}

void JsonObject::allow_only(std::initializer_list<const char*> allowed) const {
  allow_only(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void JsonObject::allow_only(const std::vector<std::string>& allowed) const {
  if (ObjectRead* object = recorded()) object->allowed = allowed;
  for (const auto& item : json_->items()) {
    bool known = false;
    for (const std::string& a : allowed) known = known || item.key() == a;
    if (!known) fail(item.key(), "unknown key" + did_you_mean(item.key(), allowed));
  }
}

void JsonObject::forbid(const std::string& key, const std::string& why) const {
  if (has(key)) fail(key, why);
}

bool JsonObject::has(const std::string& key) const {
  if (ObjectRead* object = recorded()) object->asked.insert(key);
  return json_->contains(key);
}

nlohmann::json& JsonObject::required(const std::string& key) const {
  auto it = json_->find(key);
  if (it == json_->end()) fail(key, "required key is missing");
  return *it;
}

nlohmann::json& JsonObject::value(const std::string& key) const {
  record(key, KeyRead(KeyKind::any));
  return required(key);
}

double JsonObject::number(const std::string& key, Bound bound) const {
  record(key, number_read(bound, true));
  return as_number(required(key), file_, pointer_of(key), bound);
}

long long JsonObject::integer(const std::string& key, long long at_least) const {
  record(key, integer_read(at_least, true));
  return as_integer(required(key), file_, pointer_of(key), at_least);
}

std::string JsonObject::string(const std::string& key) const {
  record(key, KeyRead(KeyKind::string));
  const nlohmann::json& v = required(key);
  if (!v.is_string()) fail(key, "must be a string");
  return v.get<std::string>();
}

JsonObject JsonObject::object(const std::string& key) const {
  record(key, KeyRead(KeyKind::object));
  return JsonObject(required(key), file_, pointer_of(key));
}

double JsonObject::number_or(const std::string& key, double fallback, Bound bound) const {
  record(key, with_fallback(number_read(bound, false), fallback));
  if (!json_->contains(key)) (*json_)[key] = fallback;
  return number(key, bound);
}

long long JsonObject::integer_or(const std::string& key, long long fallback,
                                 long long at_least) const {
  record(key, with_fallback(integer_read(at_least, false), fallback));
  if (!json_->contains(key)) (*json_)[key] = fallback;
  return integer(key, at_least);
}

std::uint64_t JsonObject::unsigned_or(const std::string& key, std::uint64_t fallback) const {
  record(key, with_fallback(integer_read(0, false), fallback));
  if (!json_->contains(key)) (*json_)[key] = fallback;
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
  record(key, with_fallback(KeyRead(KeyKind::string, false), fallback));
  if (!json_->contains(key)) (*json_)[key] = fallback;
  return string(key);
}

JsonObject JsonObject::object_or_empty(const std::string& key) const {
  record(key, KeyRead(KeyKind::object, false));
  if (!json_->contains(key)) (*json_)[key] = nlohmann::json::object();
  return object(key);
}

std::string JsonObject::choice(const std::string& key, const std::vector<std::string>& options,
                               const std::string& what) const {
  record(key, choice_read(options, true));
  const std::string s = string(key);
  for (const auto& o : options)
    if (s == o) return s;
  fail(key, "unknown " + what + " " + quoted(s) + " (expected one of: " + join(options) + ")");
}

std::string JsonObject::choice_or(const std::string& key, const std::vector<std::string>& options,
                                  const std::string& what, const std::string& fallback) const {
  record(key, with_fallback(choice_read(options, false), fallback));
  if (!json_->contains(key)) (*json_)[key] = fallback;
  return choice(key, options, what);
}

}  // namespace granular::io
