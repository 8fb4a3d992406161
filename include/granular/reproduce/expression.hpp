// The expressions of a stated result's `measure.compute` (docs/reproduce.md, "How an entry is
// measured"): numbers, words, booleans and arrays of them, arithmetic and comparisons element by
// element, and the reductions a paper's observable needs (slope, mean, where, ...). Files are
// read through the caller's FileReader, so the evaluator knows no folders.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular::reproduce {

struct Value {
  enum class Kind { number, boolean, text, array };
  Kind kind = Kind::number;
  double number = 0.0;
  bool boolean = false;
  std::string text;
  std::vector<Value> items;

  static Value of(double x);
  static Value of_bool(bool b);
  static Value of_text(std::string s);
  static Value of_array(std::vector<Value> items);
  // A JSON value as a Value: null as NaN, objects refused (ExpressionError).
  static Value of_json(const nlohmann::json& j);

  bool is_number() const { return kind == Kind::number; }
  bool is_array() const { return kind == Kind::array; }
  // The value as JSON (results.json), NaN as null.
  nlohmann::json to_json() const;
  // Short text for the report: numbers to 4 significant digits, arrays abbreviated.
  std::string brief() const;
};

// What went wrong evaluating an expression, with the expression's text.
class ExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// json(path, pointer) and col(path, column): the value found, or ExpressionError.
struct FileReader {
  std::function<Value(const std::string& path, const std::string& pointer)> json;
  std::function<Value(const std::string& path, const std::string& column)> column;
};

using Names = std::map<std::string, Value>;

// The longest expression read: ten times the longest the papers' registry holds.
constexpr std::size_t max_expression_chars = 10000;

// Evaluates `text` with the named values `names` and the files of `files`. Parsing takes time
// linear in the text; a quotient by zero, and an order or equality of a NaN, are errors.
Value evaluate(const std::string& text, const Names& names, const FileReader& files);

// Reads `text` without evaluating it: ExpressionError for a syntax error, an unknown function or
// a text longer than max_expression_chars.
void check_expression(const std::string& text);

// The value as a number (a one-element array too); ExpressionError naming `what` otherwise.
double as_number(const Value& v, const std::string& what);
// The value as a boolean; ExpressionError naming `what` otherwise.
bool as_bool(const Value& v, const std::string& what);

}  // namespace granular::reproduce
