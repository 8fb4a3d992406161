// Tests for include/granular/names.hpp and io::JsonObject::choice_of: every enum's name table
// names each value once, printing and reading use the same names, and a case loader's choice
// accepts exactly a table's names.
#include "granular/names.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "granular/impact/billiard/dynamics.hpp"
#include "granular/impact/billiard/geometry.hpp"
#include "granular/impact/billiard/params.hpp"
#include "granular/impact/dimer/dynamics.hpp"
#include "granular/impact/dimer/run.hpp"
#include "granular/impact/event.hpp"
#include "granular/impact/hybrid.hpp"
#include "granular/impact/pendulum/run.hpp"
#include "granular/impact/prism/params.hpp"
#include "granular/impact/wedge/params.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/md/ed/restitution.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/model.hpp"

namespace granular {
namespace {

// Distinct, non-empty names of distinct values, each found again by name_of.
template <class E, std::size_t N>
void expect_one_name_per_value(const Named<E> (&table)[N]) {
  std::set<std::string> names;
  std::set<int> values;
  for (const Named<E>& entry : table) {
    EXPECT_FALSE(std::string(entry.name).empty());
    EXPECT_TRUE(names.insert(entry.name).second) << "name repeated: " << entry.name;
    EXPECT_TRUE(values.insert(static_cast<int>(entry.value)).second) << entry.name;
    EXPECT_STREQ(name_of(table, entry.value), entry.name);
  }
}

TEST(Names, EveryTableNamesEachValueOnce) {
  expect_one_name_per_value(md::run_phase_names);
  expect_one_name_per_value(md::integrator_names);
  expect_one_name_per_value(impulse::tangential_rule_names);
  expect_one_name_per_value(impact::run_status_names);
  expect_one_name_per_value(impact::scheme_names);
  expect_one_name_per_value(billiard::contact_mode_names);
  expect_one_name_per_value(billiard::contact_end_names);
  expect_one_name_per_value(billiard::surface_names);
  expect_one_name_per_value(billiard::boundary_shape_names);
  expect_one_name_per_value(billiard::impact_law_names);
  expect_one_name_per_value(dimer::tip_mode_names);
  expect_one_name_per_value(dimer::motion_names);
  expect_one_name_per_value(pendulum::contact_mode_names);
  expect_one_name_per_value(prism::impact_model_names);
  expect_one_name_per_value(wedge::wall_motion_names);
}

TEST(Names, AValueOutsideTheTableGetsTheFallback) {
  EXPECT_STREQ(name_of(md::run_phase_names, static_cast<md::RunPhase>(7)), "unknown");
  EXPECT_STREQ(name_of(md::run_phase_names, static_cast<md::RunPhase>(7), "?"), "?");
}

TEST(Names, ALoadersChoiceAcceptsExactlyTheTablesNames) {
  for (const Named<md::Integrator>& entry : md::integrator_names) {
    nlohmann::json j = {{"scheme", entry.name}};
    const io::JsonObject o(j, "case.json", "/integrator");
    EXPECT_EQ(o.choice_of("scheme", md::integrator_names, "scheme"), entry.value);
  }
  nlohmann::json j = {{"scheme", "gear6"}};
  const io::JsonObject o(j, "case.json", "/integrator");
  try {
    o.choice_of("scheme", md::integrator_names, "scheme");
    FAIL() << "an unknown name was accepted";
  } catch (const io::CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("/integrator/scheme"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("expected one of: gear5, velocity_verlet"),
              std::string::npos)
        << e.what();
  }
}

TEST(Names, AnAbsentChoiceTakesTheFallbackAndFillsItIn) {
  nlohmann::json j = nlohmann::json::object();
  const io::JsonObject o(j, "case.json", "/integrator");
  EXPECT_EQ(o.choice_of("scheme", impact::scheme_names, "integrator scheme",
                        std::optional(impact::Scheme::dopri5)),
            impact::Scheme::dopri5);
  EXPECT_EQ(j["scheme"], "dopri5");  // the case echo names the default
}

}  // namespace
}  // namespace granular
