// The expressions of a stated result's measure.compute (docs/reproduce.md): arithmetic and
// comparisons element by element, the reductions against closed forms, short-circuit logic, and
// errors that name the expression.
#include "granular/reproduce/expression.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using granular::reproduce::as_bool;
using granular::reproduce::as_number;
using granular::reproduce::evaluate;
using granular::reproduce::ExpressionError;
using granular::reproduce::FileReader;
using granular::reproduce::Names;
using granular::reproduce::Value;

// json() and col() read from memory: a file "f.json" and a table "t.csv" with columns x, y, w
FileReader memory_files(int* json_reads = nullptr) {
  FileReader r;
  r.json = [json_reads](const std::string& path, const std::string& pointer) {
    if (json_reads) ++*json_reads;
    const nlohmann::json doc = {
        {"a", {{"b", 2.5}}}, {"p", {{{"rho2", 0.25}}, {{"rho2", 0.75}}}}, {"motion", "drift"}};
    if (path != "f.json") throw ExpressionError("no file " + path);
    return granular::reproduce::Value::of_json(doc.at(nlohmann::json::json_pointer(pointer)));
  };
  r.column = [](const std::string& path, const std::string& column) {
    if (path != "t.csv") throw ExpressionError("no file " + path);
    std::vector<Value> items;
    for (int i = 0; i < 5; ++i) {
      const double x = i + 1.0;
      items.push_back(column == "x"   ? Value::of(x)
                      : column == "y" ? Value::of(3.0 * std::pow(x, 2.0))
                                      : Value::of_text(i % 2 ? "odd" : "even"));
    }
    return Value::of_array(std::move(items));
  };
  return r;
}

double number(const std::string& text, const Names& names = {}) {
  return as_number(evaluate(text, names, memory_files()), text);
}

TEST(ReproduceExpression, ArithmeticFollowsPrecedence) {
  EXPECT_DOUBLE_EQ(number("1 + 2 * 3"), 7.0);
  EXPECT_DOUBLE_EQ(number("(1 + 2) * 3"), 9.0);
  EXPECT_DOUBLE_EQ(number("-2 ^ 2"), -4.0);  // unary minus binds looser than ^
  EXPECT_DOUBLE_EQ(number("2 ^ 3 ^ 2"), 512.0);
  EXPECT_DOUBLE_EQ(number("10 / 4 - 1.5e0"), 1.0);
  EXPECT_DOUBLE_EQ(number("h * 1000", {{"h", Value::of(0.075)}}), 75.0);
}

TEST(ReproduceExpression, ArraysWorkElementByElement) {
  EXPECT_DOUBLE_EQ(number("sum([1, 2, 3] * 2 + [1, 1, 1])"), 15.0);
  EXPECT_DOUBLE_EQ(number("count(col('t.csv', 'x') > 2)"), 3.0);
  EXPECT_DOUBLE_EQ(number("sum(where(col('t.csv', 'x'), col('t.csv', 'w') == 'odd'))"), 6.0);
  EXPECT_DOUBLE_EQ(number("len(where([1, 2, 3], [true, false, true] and [true, true, false]))"),
                   1.0);
  EXPECT_THROW(evaluate("[1, 2] + [1, 2, 3]", {}, memory_files()), ExpressionError);
}

TEST(ReproduceExpression, ReductionsMatchTheirClosedForms) {
  EXPECT_DOUBLE_EQ(number("mean([1, 2, 3, 4])"), 2.5);
  EXPECT_DOUBLE_EQ(number("std([2, 4, 4, 4, 5, 5, 7, 9])"), std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(number("sem([1, 3])"), 1.0);
  EXPECT_DOUBLE_EQ(number("median([5, 1, 3, 2])"), 2.5);
  EXPECT_DOUBLE_EQ(number("argmax([1, 5, 5, 2])"), 1.0);
  EXPECT_DOUBLE_EQ(number("argmax([1, 2] > 1)"), 1.0);  // a mask: its first true
  EXPECT_DOUBLE_EQ(number("at(diff([1, 4, 9]), -1)"), 5.0);
  EXPECT_DOUBLE_EQ(number("sum(slice([1, 2, 3, 4, 5], -2, 5))"), 9.0);
  EXPECT_DOUBLE_EQ(number("len(unique([3, 1, 3, 2, 1]))"), 3.0);
  EXPECT_DOUBLE_EQ(number("at(group_mean([1, 2, 3, 5], [7, 7, 8, 8]), 1)"), 4.0);
  EXPECT_DOUBLE_EQ(number("at(group_max([1, 2, 3, 5], [8, 7, 8, 7]), 0)"), 5.0);
  EXPECT_DOUBLE_EQ(number("sum(segment_max([1, 4, 2, 0, 3, 1], [true, true, true, false, true, "
                          "false]))"),
                   7.0);
  EXPECT_DOUBLE_EQ(number("interp(2.5, [1, 2, 3], [10, 20, 40])"), 30.0);
  EXPECT_TRUE(std::isnan(number("interp(4, [1, 2, 3], [10, 20, 40])")));
}

// y = 3 x^2 exactly: the log-log slope is 2 with no scatter; a noisy line's standard error is
// the textbook sqrt(RSS / (n - 2) / Sxx).
TEST(ReproduceExpression, SlopeIsTheLeastSquaresLine) {
  EXPECT_NEAR(number("slope(log(col('t.csv', 'x')), log(col('t.csv', 'y')))"), 2.0, 1e-12);
  EXPECT_NEAR(number("slope_se(log(col('t.csv', 'x')), log(col('t.csv', 'y')))"), 0.0, 1e-12);
  // x = 0..3, y = 0, 1, 1, 3: slope 0.9, residuals 0.1 0.2 -0.7 0.4, RSS 0.70, Sxx 5
  EXPECT_NEAR(number("slope([0, 1, 2, 3], [0, 1, 1, 3])"), 0.9, 1e-12);
  EXPECT_NEAR(number("slope_se([0, 1, 2, 3], [0, 1, 1, 3])"), std::sqrt(0.70 / 2.0 / 5.0), 1e-12);
}

TEST(ReproduceExpression, ReadsFilesThroughTheReader) {
  EXPECT_DOUBLE_EQ(number("json('f.json', '/a/b') * 2"), 5.0);
  EXPECT_TRUE(as_bool(evaluate("json('f.json', '/motion') == 'drift'", {}, memory_files()), ""));
  EXPECT_THROW(evaluate("json('g.json', '/a')", {}, memory_files()), ExpressionError);
}

// `a and b` with a false a, `a or b` with a true a, never evaluate b: at the quick scale b may
// read a run only the full scale has
TEST(ReproduceExpression, LogicShortCircuits) {
  int reads = 0;
  const Names quick = {{"quick", Value::of_bool(true)}};
  EXPECT_TRUE(
      as_bool(evaluate("quick or json('f.json', '/a/b') > 100", quick, memory_files(&reads)), ""));
  EXPECT_FALSE(as_bool(
      evaluate("not quick and json('f.json', '/a/b') > 1", quick, memory_files(&reads)), ""));
  EXPECT_EQ(reads, 0);
  EXPECT_FALSE(
      as_bool(evaluate("false or json('f.json', '/a/b') > 100", {}, memory_files(&reads)), ""));
  EXPECT_EQ(reads, 1);
}

TEST(ReproduceExpression, ErrorsNameTheExpression) {
  const auto message = [](const std::string& text) {
    try {
      evaluate(text, {}, memory_files());
    } catch (const ExpressionError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("1 +").find("in \"1 +\""), std::string::npos);
  EXPECT_NE(message("nosuch(1)").find("unknown function nosuch()"), std::string::npos);
  EXPECT_NE(message("x + 1").find("unknown name 'x'"), std::string::npos);
  EXPECT_NE(message("'drift' < 'jump'").find("orders numbers"), std::string::npos);
  EXPECT_NE(message("mean([])").find("needs 1 element"), std::string::npos);
  EXPECT_NE(message("[1, 2").find("expected ']'"), std::string::npos);
  // nesting a stack could not hold is refused, not a crash
  EXPECT_NE(message(std::string(9000, '(') + "1").find("nested too deeply"), std::string::npos);
  EXPECT_NE(message(std::string(9000, '-') + "1").find("nested too deeply"), std::string::npos);
  EXPECT_EQ(message(std::string(50, '(') + "1" + std::string(50, ')')), "no error");
}

}  // namespace
