// What a case says of itself (`granular validate`: Case::describe, Case::estimate) as text and,
// from the same pass, as data: each number a model prints goes through number() (or count(),
// word(), ...), which returns the text the model printed before and records the value itself
// at full precision under a group and a key, with its unit. The text is the CLI's; the data
// is what granular.Case.describe() and .estimate() return (docs/python.md).
//
//   d.group("time_step");
//   d.out << "time step: dt = " << d.number("dt", m.dt, "%.4g", "s") << " s\n";
//
// gives the line "time step: dt = 2.212e-05 s" and data()["time_step"]["dt"] = 2.2117e-05,
// units()["time_step"]["dt"] = "s". Units are spelled as the text spells them; a number
// without one (a ratio, a count) has no entry in units().
#pragma once

#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/description.hpp is host-only"
#endif

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace granular::cases {

class Description {
 public:
  explicit Description(std::ostream& text) : out(text) {}

  std::ostream& out;  // the text, as `granular validate` prints it

  // What follows is recorded under data()[name] (an object, made when new), or under
  // data()[name][sub]. Names are identifiers; "model", "notes", "text" and "units" are
  // Python's (docs/python.md) and refused.
  void group(const std::string& name);
  void group(const std::string& name, const std::string& sub);

  // io::format_value(format, v * scale); records v (null when not finite) under `key` and the
  // unit, if any. `scale` only where the text shows v in a unit chosen for its size (a wall
  // time in minutes or hours): the data keeps `unit`.
  std::string number(const std::string& key, double v, const char* format,
                     const char* unit = nullptr, double scale = 1.0);
  // The same, appended to the array under `key` (one entry per line of a list, say).
  std::string item(const std::string& key, double v, const char* format,
                   const char* unit = nullptr);
  // An integer as `out << n` prints it.
  std::string count(const std::string& key, std::int64_t n, const char* unit = nullptr);
  // A count that may pass 64 bits (the particle-steps of a long run), printed with `format`:
  // recorded as an integer while it is one below 2^63, else as a number.
  std::string large_count(const std::string& key, double n, const char* format,
                          const char* unit = nullptr);
  // A word or phrase of the text that is data (an integrator's name), as printed.
  std::string word(const std::string& key, const std::string& s);
  std::string word_item(const std::string& key, const std::string& s);
  // A value the text says is absent ("none"): null under `key`, `text` printed.
  std::string absent(const std::string& key, const std::string& text);

  // {group: {key: value or [values] or {key: ...}}}, keys in the order printed.
  const nlohmann::ordered_json& data() const { return data_; }
  // The same shape, holding the unit of every number that has one.
  const nlohmann::ordered_json& units() const { return units_; }

  // Every recorded value in the order printed, with the text it printed: the tests compare
  // data() with the text through it (tests/unit/cases/description_test.cpp).
  struct Printed {
    nlohmann::ordered_json::json_pointer where;  // in data()
    std::string format;  // number(): its format; count(): "%lld"; word(), absent(): ""
    double scale = 1.0;
    std::string text;
  };
  const std::vector<Printed>& printed() const { return printed_; }

 private:
  std::string record(const std::string& key, nlohmann::ordered_json value, bool append,
                     const char* unit, const char* format, double scale, std::string text);

  nlohmann::ordered_json::json_pointer at_;
  nlohmann::ordered_json data_ = nlohmann::ordered_json::object();
  nlohmann::ordered_json units_ = nlohmann::ordered_json::object();
  std::vector<Printed> printed_;
};

}  // namespace granular::cases
