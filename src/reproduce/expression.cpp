// A recursive-descent evaluator: the expressions are a line each and evaluated once, so the
// parser computes as it reads (no syntax tree).
#include "granular/reproduce/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <utility>

namespace granular::reproduce {

Value Value::of(double x) {
  Value v;
  v.number = x;
  return v;
}

Value Value::of_bool(bool b) {
  Value v;
  v.kind = Kind::boolean;
  v.boolean = b;
  return v;
}

Value Value::of_text(std::string s) {
  Value v;
  v.kind = Kind::text;
  v.text = std::move(s);
  return v;
}

Value Value::of_array(std::vector<Value> items) {
  Value v;
  v.kind = Kind::array;
  v.items = std::move(items);
  return v;
}

Value Value::of_json(const nlohmann::json& j) {
  if (j.is_null()) return of(NAN);
  if (j.is_boolean()) return of_bool(j.get<bool>());
  if (j.is_number()) return of(j.get<double>());
  if (j.is_string()) return of_text(j.get<std::string>());
  if (j.is_array()) {
    std::vector<Value> items;
    for (const nlohmann::json& e : j) items.push_back(of_json(e));
    return of_array(std::move(items));
  }
  throw ExpressionError("an object where a number, word, boolean or array was expected");
}

nlohmann::json Value::to_json() const {
  switch (kind) {
    case Kind::number:
      return std::isfinite(number) ? nlohmann::json(number) : nlohmann::json(nullptr);
    case Kind::boolean:
      return boolean;
    case Kind::text:
      return text;
    case Kind::array: {
      nlohmann::json a = nlohmann::json::array();
      for (const Value& e : items) a.push_back(e.to_json());
      return a;
    }
  }
  return nullptr;
}

std::string Value::brief() const {
  switch (kind) {
    case Kind::number: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4g", number);
      return buf;
    }
    case Kind::boolean:
      return boolean ? "true" : "false";
    case Kind::text:
      return text;
    case Kind::array: {
      std::string s = "[";
      for (std::size_t i = 0; i < items.size() && i < 6; ++i)
        s += (i ? ", " : "") + items[i].brief();
      if (items.size() > 6) s += ", ... (" + std::to_string(items.size()) + ")";
      return s + "]";
    }
  }
  return "";
}

double as_number(const Value& v, const std::string& what) {
  if (v.is_number()) return v.number;
  if (v.is_array() && v.items.size() == 1) return as_number(v.items[0], what);
  throw ExpressionError(what + ": expected a number, got " + v.brief());
}

bool as_bool(const Value& v, const std::string& what) {
  if (v.kind == Value::Kind::boolean) return v.boolean;
  if (v.is_array() && v.items.size() == 1) return as_bool(v.items[0], what);
  throw ExpressionError(what + ": expected true or false, got " + v.brief());
}

namespace {

using Kind = Value::Kind;

// Numbers, with true as 1 and false as 0 (argmax of a mask is its first true).
std::vector<double> numbers(const Value& v, const std::string& what) {
  const auto number = [&](const Value& e) {
    return e.kind == Kind::boolean ? (e.boolean ? 1.0 : 0.0) : as_number(e, what);
  };
  if (!v.is_array()) return {number(v)};
  std::vector<double> x;
  for (const Value& e : v.items) x.push_back(number(e));
  return x;
}

Value array_of(const std::vector<double>& x) {
  std::vector<Value> items;
  for (double e : x) items.push_back(Value::of(e));
  return Value::of_array(std::move(items));
}

// f applied element by element to a and b (an array with a scalar: with every element).
template <class F>
Value elementwise(const Value& a, const Value& b, const std::string& op, F f) {
  if (a.is_array() && b.is_array()) {
    if (a.items.size() != b.items.size())
      throw ExpressionError("'" + op + "' of arrays of " + std::to_string(a.items.size()) +
                            " and " + std::to_string(b.items.size()) + " elements");
    std::vector<Value> r;
    for (std::size_t i = 0; i < a.items.size(); ++i)
      r.push_back(elementwise(a.items[i], b.items[i], op, f));
    return Value::of_array(std::move(r));
  }
  if (a.is_array()) {
    std::vector<Value> r;
    for (const Value& e : a.items) r.push_back(elementwise(e, b, op, f));
    return Value::of_array(std::move(r));
  }
  if (b.is_array()) {
    std::vector<Value> r;
    for (const Value& e : b.items) r.push_back(elementwise(a, e, op, f));
    return Value::of_array(std::move(r));
  }
  return f(a, b);
}

template <class F>
Value each(const Value& a, F f) {
  if (!a.is_array()) return f(a);
  std::vector<Value> r;
  for (const Value& e : a.items) r.push_back(each(e, f));
  return Value::of_array(std::move(r));
}

Value arithmetic(const Value& a, const Value& b, char op) {
  return elementwise(a, b, std::string(1, op), [op](const Value& x, const Value& y) {
    const double u = as_number(x, std::string("'") + op + "'");
    const double v = as_number(y, std::string("'") + op + "'");
    switch (op) {
      case '+':
        return Value::of(u + v);
      case '-':
        return Value::of(u - v);
      case '*':
        return Value::of(u * v);
      case '/':
        // a quotient by zero is no number the verdict could use (1/0 and 0/0 fail the result)
        if (v == 0.0) throw ExpressionError("division by zero");
        return Value::of(u / v);
      default:
        return Value::of(std::pow(u, v));
    }
  });
}

Value compare(const Value& a, const Value& b, const std::string& op) {
  return elementwise(a, b, op, [&op](const Value& x, const Value& y) {
    if (x.kind != y.kind)
      throw ExpressionError("'" + op + "' of " + x.brief() + " and " + y.brief());
    if (x.kind == Kind::text || x.kind == Kind::boolean) {
      const bool same = x.kind == Kind::text ? x.text == y.text : x.boolean == y.boolean;
      if (op == "==") return Value::of_bool(same);
      if (op == "!=") return Value::of_bool(!same);
      throw ExpressionError("'" + op + "' orders numbers, not " + x.brief());
    }
    const double u = x.number, v = y.number;
    // not a number (a null read, a value outside an interpolation) orders nothing: the result
    // fails rather than getting a verdict from it
    if (std::isnan(u) || std::isnan(v))
      throw ExpressionError("'" + op + "' of " + x.brief() + " and " + y.brief() +
                            ": not a number");
    if (op == "==") return Value::of_bool(u == v);
    if (op == "!=") return Value::of_bool(u != v);
    if (op == "<") return Value::of_bool(u < v);
    if (op == "<=") return Value::of_bool(u <= v);
    if (op == ">") return Value::of_bool(u > v);
    return Value::of_bool(u >= v);
  });
}

Value logical(const Value& a, const Value& b, const std::string& op) {
  return elementwise(a, b, op, [&op](const Value& x, const Value& y) {
    const bool u = as_bool(x, op), v = as_bool(y, op);
    return Value::of_bool(op == "and" ? (u && v) : (u || v));
  });
}

const std::vector<Value>& items_of(const Value& v, const std::string& fn) {
  if (!v.is_array()) throw ExpressionError(fn + "(): expected an array, got " + v.brief());
  return v.items;
}

std::size_t index_of(double i, std::size_t n, const std::string& fn) {
  const double k = i < 0 ? i + static_cast<double>(n) : i;
  if (!(k >= 0 && k < static_cast<double>(n)) || k != std::floor(k))
    throw ExpressionError(fn + "(): index " + Value::of(i).brief() + " outside an array of " +
                          std::to_string(n));
  return static_cast<std::size_t>(k);
}

// The least-squares line of y on x: {slope, its standard error}.
std::pair<double, double> least_squares(const std::vector<double>& x,
                                        const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n != y.size() || n < 2)
    throw ExpressionError("slope(): needs two arrays of the same length >= 2, got " +
                          std::to_string(n) + " and " + std::to_string(y.size()));
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  const double b = sxy / sxx;
  double rss = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = y[i] - my - b * (x[i] - mx);
    rss += r * r;
  }
  const double se = n > 2 ? std::sqrt(rss / static_cast<double>(n - 2) / sxx) : NAN;
  return {b, se};
}

double interpolate(double x, const std::vector<double>& xs, const std::vector<double>& ys) {
  if (xs.size() != ys.size() || xs.size() < 2)
    throw ExpressionError("interp(): needs xs and ys of the same length >= 2");
  if (x < xs.front() || x > xs.back()) return NAN;
  const std::size_t j =
      static_cast<std::size_t>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin());
  if (j >= xs.size()) return ys.back();
  const std::size_t i = j - 1;
  return ys[i] + (ys[j] - ys[i]) * (x - xs[i]) / (xs[j] - xs[i]);
}

// Every function call() knows: the parser refuses any other name, when checking too.
constexpr const char* kFunctions[] = {
    "json",   "col",         "abs",    "log",      "exp",        "sqrt",      "floor",     "sign",
    "where",  "segment_max", "len",    "all",      "any",        "count",     "first",     "last",
    "at",     "slice",       "slope",  "slope_se", "group_mean", "group_min", "group_max", "interp",
    "sum",    "unique",      "median", "diff",     "mean",       "min",       "max",       "argmin",
    "argmax", "std",         "sem",    "bin"};

// The arguments of a call of `fn`, checked as each function needs them.
struct Call {
  const std::string& fn;
  const std::vector<Value>& a;
  void want(std::size_t n) const {
    if (a.size() != n)
      throw ExpressionError(fn + "(): expected " + std::to_string(n) + " argument(s), got " +
                            std::to_string(a.size()));
  }
  const std::string& text(std::size_t i) const {
    if (a[i].kind != Kind::text)
      throw ExpressionError(fn + "(): argument " + std::to_string(i + 1) + " must be a word");
    return a[i].text;
  }
};

// Elements picked, looked up or counted: where, segment_max, len, all, any, count, first, last,
// at, slice (nullopt: fn is none of them).
std::optional<Value> select_elements(const Call& c) {
  const std::string& fn = c.fn;
  const std::vector<Value>& a = c.a;
  const auto want = [&](std::size_t n) { c.want(n); };
  if (fn == "where") {
    want(2);
    const std::vector<Value>& v = items_of(a[0], fn);
    const std::vector<Value>& m = items_of(a[1], fn);
    if (v.size() != m.size())
      throw ExpressionError("where(): an array of " + std::to_string(v.size()) +
                            " with a mask of " + std::to_string(m.size()));
    std::vector<Value> r;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (as_bool(m[i], "where()")) r.push_back(v[i]);
    return Value::of_array(std::move(r));
  }
  if (fn == "segment_max") {
    // the largest element of each run of consecutive true in the mask
    want(2);
    const std::vector<double> v = numbers(a[0], fn);
    const std::vector<Value>& m = items_of(a[1], fn);
    if (v.size() != m.size()) throw ExpressionError(fn + "(): values and mask differ in length");
    std::vector<double> r;
    bool open = false;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!as_bool(m[i], fn + "()")) {
        open = false;
      } else if (open) {
        r.back() = std::max(r.back(), v[i]);
      } else {
        r.push_back(v[i]);
        open = true;
      }
    }
    return array_of(r);
  }
  if (fn == "len") {
    want(1);
    return Value::of(static_cast<double>(items_of(a[0], fn).size()));
  }
  if (fn == "all" || fn == "any" || fn == "count") {
    want(1);
    std::size_t n = 0;
    const std::vector<Value>& m = items_of(a[0], fn);
    // all() of nothing would hold vacuously: an empty selection decides no claim
    if (fn == "all" && m.empty()) throw ExpressionError("all(): of an empty array");
    for (const Value& e : m) n += as_bool(e, fn + "()") ? 1 : 0;
    if (fn == "count") return Value::of(static_cast<double>(n));
    return Value::of_bool(fn == "all" ? n == m.size() : n > 0);
  }
  if (fn == "first" || fn == "last") {
    want(1);
    const std::vector<Value>& v = items_of(a[0], fn);
    if (v.empty()) throw ExpressionError(fn + "(): of an empty array");
    return fn == "first" ? v.front() : v.back();
  }
  if (fn == "at") {
    want(2);
    const std::vector<Value>& v = items_of(a[0], fn);
    return v[index_of(as_number(a[1], fn), v.size(), fn)];
  }
  if (fn == "slice") {
    want(3);
    const std::vector<Value>& v = items_of(a[0], fn);
    const auto bound = [&](double i) {
      const double k = i < 0 ? i + static_cast<double>(v.size()) : i;
      return static_cast<std::size_t>(std::clamp(k, 0.0, static_cast<double>(v.size())));
    };
    const std::size_t i = bound(as_number(a[1], fn)), j = bound(as_number(a[2], fn));
    return Value::of_array(
        std::vector<Value>(v.begin() + static_cast<std::ptrdiff_t>(i),
                           v.begin() + static_cast<std::ptrdiff_t>(std::max(i, j))));
  }
  return std::nullopt;
}

// Fits, groups and tables: slope, slope_se, group_mean, group_min, group_max, bin, interp
// (nullopt: fn is none of them).
std::optional<Value> fit_or_group(const Call& c) {
  const std::string& fn = c.fn;
  const std::vector<Value>& a = c.a;
  const auto want = [&](std::size_t n) { c.want(n); };
  if (fn == "slope" || fn == "slope_se") {
    want(2);
    const auto [b, se] = least_squares(numbers(a[0], fn), numbers(a[1], fn));
    return Value::of(fn == "slope" ? b : se);
  }
  if (fn == "group_mean" || fn == "group_min" || fn == "group_max") {
    // per distinct key, in increasing order of the keys
    want(2);
    const std::vector<double> v = numbers(a[0], fn), k = numbers(a[1], fn);
    if (v.size() != k.size()) throw ExpressionError(fn + "(): values and keys differ in length");
    std::map<double, std::vector<double>> groups;
    for (std::size_t i = 0; i < v.size(); ++i) groups[k[i]].push_back(v[i]);
    std::vector<double> r;
    for (const auto& [key, g] : groups) {
      if (fn == "group_mean") {
        r.push_back(std::accumulate(g.begin(), g.end(), 0.0) / static_cast<double>(g.size()));
      } else {
        r.push_back(fn == "group_min" ? *std::min_element(g.begin(), g.end())
                                      : *std::max_element(g.begin(), g.end()));
      }
    }
    return array_of(r);
  }
  if (fn == "bin") {
    // the interval of the increasing edges each x lies in: the number of edges <= x
    want(2);
    const std::vector<double> edges = numbers(a[1], fn);
    for (std::size_t i = 1; i < edges.size(); ++i)
      if (!(edges[i] > edges[i - 1])) throw ExpressionError("bin(): edges must increase");
    return each(a[0], [&](const Value& e) {
      const double x = as_number(e, fn);
      return Value::of(
          static_cast<double>(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin()));
    });
  }
  if (fn == "interp") {
    want(3);
    const std::vector<double> xs = numbers(a[1], fn), ys = numbers(a[2], fn);
    return each(a[0],
                [&](const Value& e) { return Value::of(interpolate(as_number(e, fn), xs, ys)); });
  }
  return std::nullopt;
}

// An array of numbers reduced: sum, unique, median, diff, mean, min, max, argmin, argmax, std,
// sem.
Value reduce(const Call& c) {
  const std::string& fn = c.fn;
  const std::vector<Value>& a = c.a;
  const auto want = [&](std::size_t n) { c.want(n); };
  want(1);
  const std::vector<double> x = numbers(a[0], fn);
  const double n = static_cast<double>(x.size());
  const auto need = [&](std::size_t k) {
    if (x.size() < k)
      throw ExpressionError(fn + "(): needs " + std::to_string(k) + " element(s), got " +
                            std::to_string(x.size()));
  };
  if (fn == "sum") return Value::of(std::accumulate(x.begin(), x.end(), 0.0));
  if (fn == "unique") {
    std::vector<double> u = x;
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    return array_of(u);
  }
  if (fn == "median") {
    need(1);
    std::vector<double> u = x;
    std::sort(u.begin(), u.end());
    const std::size_t h = u.size() / 2;
    return Value::of(u.size() % 2 ? u[h] : 0.5 * (u[h - 1] + u[h]));
  }
  if (fn == "diff") {
    std::vector<double> d;
    for (std::size_t i = 1; i < x.size(); ++i) d.push_back(x[i] - x[i - 1]);
    return array_of(d);
  }
  if (fn == "mean") {
    need(1);
    return Value::of(std::accumulate(x.begin(), x.end(), 0.0) / n);
  }
  if (fn == "min" || fn == "max" || fn == "argmin" || fn == "argmax") {
    need(1);
    const auto it = fn == "min" || fn == "argmin" ? std::min_element(x.begin(), x.end())
                                                  : std::max_element(x.begin(), x.end());
    if (fn[0] == 'a') return Value::of(static_cast<double>(it - x.begin()));
    return Value::of(*it);
  }
  if (fn == "std" || fn == "sem") {
    need(2);
    const double m = std::accumulate(x.begin(), x.end(), 0.0) / n;
    double ss = 0.0;
    for (double e : x) ss += (e - m) * (e - m);
    const double s = std::sqrt(ss / (n - 1.0));
    return Value::of(fn == "std" ? s : s / std::sqrt(n));
  }
  throw ExpressionError("unknown function " + fn + "()");
}

Value call(const std::string& fn, const std::vector<Value>& a, const FileReader& files) {
  const Call c{fn, a};
  if (fn == "json" || fn == "col") {
    c.want(2);
    return fn == "json" ? files.json(c.text(0), c.text(1)) : files.column(c.text(0), c.text(1));
  }
  // element by element
  static const std::map<std::string, double (*)(double)> unary = {
      {"abs", [](double x) { return std::fabs(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"sign", [](double x) { return static_cast<double>((x > 0) - (x < 0)); }}};
  if (const auto u = unary.find(fn); u != unary.end()) {
    c.want(1);
    return each(a[0], [&](const Value& e) { return Value::of(u->second(as_number(e, fn))); });
  }
  if (std::optional<Value> v = select_elements(c)) return *v;
  if (std::optional<Value> v = fit_or_group(c)) return *v;
  return reduce(c);
}

class Parser {
 public:
  Parser(const std::string& text, const Names& names, const FileReader& files)
      : s_(text), names_(names), files_(files) {}

  // A parser that reads the whole text without evaluating anything: its syntax and its
  // functions' names only.
  static Parser checking(const std::string& text, const Names& names, const FileReader& files) {
    Parser p(text, names, files);
    p.skipping_ = true;
    return p;
  }

  Value whole() {
    Value v = disjunction();
    skip();
    if (p_ != s_.size()) fail("unexpected '" + s_.substr(p_, 12) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ExpressionError(what + " at character " + std::to_string(p_ + 1));
  }
  void skip() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool eat(const std::string& token) {
    skip();
    if (s_.compare(p_, token.size(), token) != 0) return false;
    // a word operator ends the word
    const std::size_t end = p_ + token.size();
    if (std::isalpha(static_cast<unsigned char>(token[0])) && end < s_.size() &&
        (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
      return false;
    p_ = end;
    return true;
  }
  void expect(const std::string& token) {
    if (!eat(token)) fail("expected '" + token + "'");
  }

  // Nesting deeper than any observable needs is refused before it can exhaust the stack.
  struct Deeper {
    explicit Deeper(Parser& p) : parser(p) {
      if (++parser.depth_ > 200) parser.fail("nested too deeply");
    }
    ~Deeper() { --parser.depth_; }
    Parser& parser;
  };

  // `a or b` with a true, `a and b` with a false: b is read, not evaluated (it may read a run
  // that only the other case has)
  Value disjunction() {
    const Deeper deeper(*this);
    Value v = conjunction();
    while (eat("or")) {
      if (!skipping_ && v.kind == Kind::boolean && v.boolean) {
        skipped([&] { conjunction(); });
      } else {
        Value w = conjunction();
        if (!skipping_) v = logical(v, w, "or");
      }
    }
    return v;
  }
  Value conjunction() {
    Value v = negation();
    while (eat("and")) {
      if (!skipping_ && v.kind == Kind::boolean && !v.boolean) {
        skipped([&] { negation(); });
      } else {
        Value w = negation();
        if (!skipping_) v = logical(v, w, "and");
      }
    }
    return v;
  }
  template <class F>
  void skipped(F read) {
    skipping_ = true;
    read();
    skipping_ = false;
  }
  Value negation() {
    const Deeper deeper(*this);
    if (eat("not")) {
      Value v = negation();
      if (skipping_) return v;
      return each(v, [](const Value& e) { return Value::of_bool(!as_bool(e, "not")); });
    }
    return comparison();
  }
  Value comparison() {
    Value v = additive();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"})
      if (eat(op)) {
        Value w = additive();
        return skipping_ ? v : compare(v, w, op);
      }
    return v;
  }
  // a op b, unless skipping
  Value binary(const Value& a, const Value& b, char op) {
    return skipping_ ? a : arithmetic(a, b, op);
  }
  Value additive() {
    Value v = multiplicative();
    for (;;) {
      if (eat("+")) {
        v = binary(v, multiplicative(), '+');
      } else if (eat("-")) {
        v = binary(v, multiplicative(), '-');
      } else {
        return v;
      }
    }
  }
  Value multiplicative() {
    Value v = unary();
    for (;;) {
      if (eat("*")) {
        v = binary(v, unary(), '*');
      } else if (eat("/")) {
        v = binary(v, unary(), '/');
      } else {
        return v;
      }
    }
  }
  Value unary() {
    const Deeper deeper(*this);
    if (eat("-")) return binary(Value::of(0.0), unary(), '-');
    return power();
  }
  Value power() {
    Value v = primary();
    if (eat("^")) return binary(v, unary(), '^');  // right-associative
    return v;
  }
  Value primary() {
    skip();
    if (p_ >= s_.size()) fail("unexpected end");
    const char c = s_[p_];
    if (eat("(")) {
      Value v = disjunction();
      expect(")");
      return v;
    }
    if (eat("[")) {
      std::vector<Value> items;
      if (!eat("]")) {
        do items.push_back(disjunction());
        while (eat(","));
        expect("]");
      }
      return Value::of_array(std::move(items));
    }
    if (c == '\'' || c == '"') {
      const std::size_t end = s_.find(c, p_ + 1);
      if (end == std::string::npos) fail("unterminated word");
      Value v = Value::of_text(s_.substr(p_ + 1, end - p_ - 1));
      p_ = end + 1;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      // strtod reads the number where it stands (a copy of the rest of the text for every
      // number made the parse quadratic)
      const char* start = s_.c_str() + p_;
      char* end = nullptr;
      const double x = std::strtod(start, &end);
      if (end == start) fail("bad number");
      if (!std::isfinite(x)) fail("a number beyond a double");
      p_ += static_cast<std::size_t>(end - start);
      return Value::of(x);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = p_;
      while (end < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
        ++end;
      const std::string word = s_.substr(p_, end - p_);
      p_ = end;
      if (word == "true" || word == "false") return Value::of_bool(word == "true");
      if (eat("(")) {
        if (std::find(std::begin(kFunctions), std::end(kFunctions), word) == std::end(kFunctions))
          fail("unknown function " + word + "()");
        std::vector<Value> args;
        if (!eat(")")) {
          do args.push_back(disjunction());
          while (eat(","));
          expect(")");
        }
        return skipping_ ? Value() : call(word, args, files_);
      }
      if (skipping_) return Value();
      const auto it = names_.find(word);
      if (it == names_.end()) fail("unknown name '" + word + "'");
      return it->second;
    }
    fail(std::string("unexpected '") + c + "'");
  }

  const std::string& s_;
  const Names& names_;
  const FileReader& files_;
  std::size_t p_ = 0;
  bool skipping_ = false;  // reading what a short-circuit leaves unevaluated
  int depth_ = 0;          // of the recursion: parentheses, arrays, calls, unary operators
};

}  // namespace

namespace {

// The text quoted in a message: its start, when it is long.
std::string quoted_text(const std::string& text) {
  return "\"" + (text.size() <= 200 ? text : text.substr(0, 200) + "...") + "\"";
}

void check_length(const std::string& text) {
  if (text.size() > max_expression_chars)
    throw ExpressionError("an expression of " + std::to_string(text.size()) +
                          " characters (at most " + std::to_string(max_expression_chars) + ")");
}

}  // namespace

Value evaluate(const std::string& text, const Names& names, const FileReader& files) {
  try {
    check_length(text);
    return Parser(text, names, files).whole();
  } catch (const ExpressionError& e) {
    throw ExpressionError(std::string(e.what()) + " in " + quoted_text(text));
  }
}

void check_expression(const std::string& text) {
  try {
    check_length(text);
    const Names none;
    const FileReader no_files;
    Parser::checking(text, none, no_files).whole();
  } catch (const ExpressionError& e) {
    throw ExpressionError(std::string(e.what()) + " in " + quoted_text(text));
  }
}

}  // namespace granular::reproduce
