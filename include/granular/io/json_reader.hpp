// A small validating reader of JSON case files. Every value is read through a JsonObject that
// knows its file and its JSON pointer, so that every error reads
//   cases/x.json: /drive/gamma: must be >= 0
// (file as given, JSON pointer, what is wrong) and is thrown as a CaseError. Optional keys that
// are absent get their default written into the JSON, so the document becomes the case as run.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/json_reader.hpp is host-only"
#endif

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/io/input_file.hpp"

namespace granular::io {

// Bad input: a case file, a --set override or a command-line option. what() is the one-line
// message; file() and pointer() say where (either may be empty).
class CaseError : public std::runtime_error {
 public:
  CaseError(const std::string& file, const std::string& pointer, const std::string& detail);

  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string file_;
  std::string pointer_;
  std::string detail_;
};

// The deepest a case's JSON may nest (objects and arrays, the document itself at depth 1). Cases
// nest a few levels; anything deeper is refused where it is parsed, before a recursive walk (a
// copy, a dump) can overflow the stack on it.
constexpr int max_json_depth = 100;

// Every JSON document the program reads (cases, registries, summaries, the files expressions read)
// is read by these, with the depth limit: a regular file of at most `max_bytes` bytes
// (io/input_file.hpp), parsed. Errors: "<path>: cannot open: <OS reason>", "<path>: not a
// regular file: a FIFO", "<path>: invalid JSON at line L, column C: <reason>" (numbers beyond a
// double's range, and nesting deeper than max_json_depth, too).
nlohmann::json read_json_file(const std::string& path, std::uint64_t max_bytes = max_input_bytes);
// The same, keeping the objects' keys in the file's order.
nlohmann::ordered_json read_ordered_json_file(const std::string& path,
                                              std::uint64_t max_bytes = max_input_bytes);

// Parses `text` as read_json_file does; `file` names it in messages.
nlohmann::json parse_json_text(const std::string& text, const std::string& file);
nlohmann::ordered_json parse_ordered_json_text(const std::string& text, const std::string& file);

// What parse_json (below) found: the document, or where and why it is not one.
template <class Json>
struct BasicJsonParse {
  Json doc;
  bool ok = false;
  bool too_deep = false;      // well-formed up to a value nested deeper than the limit
  bool out_of_range = false;  // a number beyond a double's range
  std::size_t line = 0;       // of the first error, 1-based
  std::size_t column = 0;
  std::string reason;
};
using JsonParse = BasicJsonParse<nlohmann::json>;

// Parses `text`, nested at most `max_depth` levels deep; never throws.
JsonParse parse_json(const std::string& text, int max_depth = max_json_depth);

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or stray bytes).
bool is_valid_utf8(const std::string& text);

// `text` made safe for a one-line message: control characters and bytes that are not UTF-8
// escaped (\n, \t, \x1b, ...).
std::string one_line(const std::string& text);

// What a user typed, echoed back in a message: one line, cut after `max_chars` bytes ("... (N
// bytes)" then follows).
std::string excerpt(const std::string& text, std::size_t max_chars = 80);

// The same in double quotes.
std::string quoted(const std::string& text, std::size_t max_chars = 60);

// Escapes one key for use in a JSON pointer (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointer_token(const std::string& key);

// Lower bound a number must satisfy.
enum class Bound { any, non_negative, positive };

struct KeyRead;  // io/key_record.hpp
struct ObjectRead;

// One JSON object of a case, in place: reads keys, checks them, fills defaults into it.
class JsonObject {
 public:
  // Throws "<pointer>: must be an object" if `value` is not an object.
  JsonObject(nlohmann::json& value, std::string file, std::string pointer);

  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  // The pointer of a key of this object.
  std::string pointer_of(const std::string& key) const;

  // Rejects any key not in `allowed` ("<pointer>/<key>: unknown key").
  void allow_only(std::initializer_list<const char*> allowed) const;
  void allow_only(const std::vector<std::string>& allowed) const;
  // Rejects `key` if present, saying why ("<pointer>/<key>: <why>").
  void forbid(const std::string& key, const std::string& why) const;
  bool has(const std::string& key) const;

  // Required values; a missing key gives "<pointer>/<key>: required key is missing".
  double number(const std::string& key, Bound bound = Bound::any) const;
  long long integer(const std::string& key, long long at_least) const;
  std::string string(const std::string& key) const;
  JsonObject object(const std::string& key) const;
  // The value itself, for keys of more than one shape.
  nlohmann::json& value(const std::string& key) const;

  // Optional values: when the key is absent, `fallback` is written into the object and returned.
  double number_or(const std::string& key, double fallback, Bound bound = Bound::any) const;
  long long integer_or(const std::string& key, long long fallback, long long at_least) const;
  std::uint64_t unsigned_or(const std::string& key, std::uint64_t fallback) const;
  std::string string_or(const std::string& key, const std::string& fallback) const;
  // An optional object: created empty when absent, so its own defaults are filled in.
  JsonObject object_or_empty(const std::string& key) const;

  // A choice among names: "<pointer>/<key>: unknown <what> "x" (expected one of: a, b)".
  std::string choice(const std::string& key, const std::vector<std::string>& options,
                     const std::string& what) const;
  std::string choice_or(const std::string& key, const std::vector<std::string>& options,
                        const std::string& what, const std::string& fallback) const;
  // The same among the names of an enum's table (names.hpp), as its value; `fallback` when
  // the key is absent (required without one).
  template <class E, std::size_t N>
  E choice_of(const std::string& key, const Named<E> (&table)[N], const std::string& what,
              std::optional<E> fallback = std::nullopt) const {
    std::vector<std::string> names;
    for (const Named<E>& entry : table) names.push_back(entry.name);
    const std::string name = fallback ? choice_or(key, names, what, name_of(table, *fallback))
                                      : choice(key, names, what);
    for (const Named<E>& entry : table)
      if (name == entry.name) return entry.value;
    fail(key, "unknown " + what);  // not reached: choice accepts the table's names only
  }

  // Throws a CaseError at "<pointer>/<key>" (or at this object when key is empty).
  [[noreturn]] void fail(const std::string& key, const std::string& detail) const;

 private:
  nlohmann::json& required(const std::string& key) const;
  // This object in this thread's KeyRecording, if one is on (io/key_record.hpp); null else.
  ObjectRead* recorded() const;
  // Reports the read of `key` to it.
  void record(const std::string& key, const KeyRead& read) const;

  nlohmann::json* json_;
  std::string file_;
  std::string pointer_;
};

// Checks a value read from the JSON (the helpers above use these too). `pointer` names it in
// the error.
double as_number(const nlohmann::json& v, const std::string& file, const std::string& pointer,
                 Bound bound);
long long as_integer(const nlohmann::json& v, const std::string& file, const std::string& pointer,
                     long long at_least);

// Formats a number for a message with `digits` significant digits ("%g": 0.001, 3.1e-05).
std::string format_number(double x, int digits = 6);

// A limit > 0 for a message that rejects `than`: rounded toward zero, with the fewest digits
// (at least 3) that keep it at most `limit` and printed unlike `than` ("at most 0.000146 s" for
// a rejected 0.000147 s, never "at most 0.00015 s").
std::string format_at_most(double limit, double than);

}  // namespace granular::io
