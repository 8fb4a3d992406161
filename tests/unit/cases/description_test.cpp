// A case's description as data (include/granular/cases/description.hpp): for every shipped case
// and every variant pinned in tests/data/validate/index.json, each number recorded by describe
// and estimate, read back from the JSON the Python module receives, prints with its format as
// the text printed it, in the text's order; nothing is recorded that was not printed, and every
// unit belongs to a recorded value.
#include "granular/cases/description.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "granular/io/output.hpp"

namespace {

using granular::cases::Description;
using nlohmann::json;

const std::string root = GRANULAR_SOURCE_DIR;

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// Pointers of the values in `data`: each leaf, each array element.
void leaves(const json& j, const json::json_pointer& at, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) leaves(v, at / k, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) leaves(j[i], at / i, out);
  } else {
    out.push_back(at.to_string());
  }
}

// Every recorded value against the text; `where` names the case in failures.
void expect_data_is_the_text(const Description& d, const std::string& text,
                             const std::string& where) {
  // what granular.Case.describe() gets (the bindings dump, Python parses)
  const json data = json::parse(d.data().dump());
  const json units = json::parse(d.units().dump());
  std::size_t at = 0;
  std::vector<std::string> printed;
  for (const Description::Printed& p : d.printed()) {
    const std::string pointer = p.where.to_string();
    printed.push_back(pointer);
    const json& v = data.at(json::json_pointer(pointer));
    if (p.format.empty()) {
      if (v.is_string())
        EXPECT_EQ(v.get<std::string>(), p.text) << where << " " << pointer;
      else
        EXPECT_TRUE(v.is_null()) << where << " " << pointer;
    } else if (p.format == "%lld") {
      ASSERT_TRUE(v.is_number_integer()) << where << " " << pointer;
      EXPECT_EQ(std::to_string(v.get<long long>()), p.text) << where << " " << pointer;
    } else if (v.is_null()) {
      // a value that is not finite prints as the C library prints it
      EXPECT_NE(p.text.find_first_of("ni"), std::string::npos) << where << " " << pointer;
    } else {
      ASSERT_TRUE(v.is_number()) << where << " " << pointer;
      EXPECT_EQ(granular::io::format_value(p.format.c_str(), v.get<double>() * p.scale), p.text)
          << where << " " << pointer << " = " << v.dump();
    }
    const std::size_t found = text.find(p.text, at);
    ASSERT_NE(found, std::string::npos)
        << where << ": " << pointer << " printed \"" << p.text << "\", not in the text after\n"
        << text.substr(at);
    at = found + p.text.size();
  }
  std::vector<std::string> recorded;
  leaves(data, json::json_pointer(), recorded);
  std::sort(recorded.begin(), recorded.end());
  std::sort(printed.begin(), printed.end());
  EXPECT_EQ(recorded, printed) << where;
  // a unit belongs to a value (or to a list of them)
  std::vector<std::string> with_unit;
  leaves(units, json::json_pointer(), with_unit);
  for (const std::string& u : with_unit) {
    ASSERT_TRUE(data.contains(json::json_pointer(u))) << where << ": unit of nothing at " << u;
    const json& v = data.at(json::json_pointer(u));
    EXPECT_TRUE(v.is_number() || v.is_null() || v.is_array()) << where << " " << u;
  }
}

TEST(Description, EveryRecordedNumberIsThePrintedOne) {
  const json index = read_json(root + "/tests/data/validate/index.json");
  ASSERT_GE(index.size(), 60u);
  for (const json& pin : index) {
    const std::string name = pin["file"];
    std::vector<std::string> sets;
    for (const json& s : pin["set"]) sets.push_back(s);
    const granular::cases::LoadedCase lc = granular::cases::load_case(
        root + "/cases/" + pin["case"].get<std::string>() + ".json", sets);

    std::ostringstream text;
    Description d(text);
    lc.spec->describe(d);
    EXPECT_FALSE(d.data().empty()) << name;
    expect_data_is_the_text(d, text.str(), name);

    granular::cases::RunContext ctx;
    ctx.case_echo = lc.echo;
    ctx.request.threads = 2;
    lc.spec->check_run(ctx);
    std::ostringstream estimate_text;
    Description estimate(estimate_text);
    lc.spec->estimate(ctx, estimate);
    expect_data_is_the_text(estimate, estimate_text.str(), name + " (estimate)");
    // a packing ensemble by MD has an estimate
    if (lc.model == "packing_ensemble" && estimate_text.str().find("none") == std::string::npos) {
      EXPECT_GT(estimate.data().at("estimate").at("wall_time").get<double>(), 0.0) << name;
      EXPECT_EQ(estimate.units().at("estimate").at("wall_time"), "s") << name;
    }
  }
}

TEST(Description, RecordsUnderTheGroupAtFullPrecision) {
  std::ostringstream text;
  Description d(text);
  d.group("time_step");
  d.out << "dt = " << d.number("dt", 2.2117436e-05, "%.4g", "s") << " s, " << d.count("steps", 50)
        << " steps (" << d.word("scheme", "gear5") << ")\n";
  d.group("contacts", "disk_wall");
  d.out << d.number("t_c", 1.0 / 3.0, "%.3g", "s") << " " << d.item("A", 1.5, "%.2g", "m") << " "
        << d.item("A", 2.5, "%.2g", "m") << " " << d.absent("lambda0_min", "none") << "\n";
  d.group("estimate");
  d.out << d.number("wall_time", 720.0, "%.3g min", "s", 1.0 / 60.0) << "\n";
  EXPECT_EQ(text.str(), "dt = 2.212e-05 s, 50 steps (gear5)\n0.333 1.5 2.5 none\n12 min\n");
  const nlohmann::ordered_json expected = nlohmann::ordered_json::parse(R"({
    "time_step": {"dt": 2.2117436e-05, "steps": 50, "scheme": "gear5"},
    "contacts": {"disk_wall": {"t_c": 0.3333333333333333, "A": [1.5, 2.5], "lambda0_min": null}},
    "estimate": {"wall_time": 720.0}})");
  EXPECT_EQ(d.data(), expected);
  EXPECT_EQ(d.units().dump(),
            R"({"time_step":{"dt":"s"},"contacts":{"disk_wall":{"t_c":"s","A":"m"}},)"
            R"("estimate":{"wall_time":"s"}})");
}

TEST(Description, RefusesWhatPythonCouldNotTellApart) {
  std::ostringstream text;
  Description d(text);
  EXPECT_THROW(d.number("dt", 1.0, "%g"), std::logic_error);  // before a group
  for (const char* name : {"model", "notes", "text", "units", ""})
    EXPECT_THROW(d.group(name), std::logic_error) << name;
  d.group("run");
  d.number("dt", 1.0, "%g");
  EXPECT_THROW(d.number("dt", 2.0, "%g"), std::logic_error);  // twice
  EXPECT_THROW(d.item("dt", 2.0, "%g"), std::logic_error);    // a number, not a list
}

}  // namespace
