// Hostile but fair input to the case loader (issue 9's reproducers): every one is a CaseError
// with the file, the JSON pointer or position, and a one-line reason, never a crash, a hang, an
// exit 1 or a run that silently does nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "granular/io/json_reader.hpp"

namespace granular::io {
namespace {

using nlohmann::json;

std::string data_path(const std::string& name) {
  return std::string(GRANULAR_SOURCE_DIR) + "/tests/data/" + name;
}

json data(const std::string& name) { return read_json_file(data_path(name)); }

// The message of the CaseError that parsing `text` as "u.json" throws ("" if none).
std::string parse_error(const std::string& text) {
  try {
    parse_json_text(text, "u.json");
  } catch (const CaseError& e) {
    return e.what();
  }
  return "";
}

// The message of the CaseError that loading `doc` as "cases/x.json" throws ("" if none).
std::string load_error(const json& doc, const std::vector<std::string>& overrides = {}) {
  try {
    cases::load_case_json(doc, "cases/x.json", overrides);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Class 1: a syntax error inside a long token was rewritten by a recursive regex (SIGSEGV).
TEST(HostileInput, SyntaxErrorInsideALongTokenIsAShortMessage) {
  const std::string long_text(200000, 'a');
  const std::string unterminated = "{\"model\": \"collision\", \"description\": \"" + long_text;
  const std::string message = parse_error(unterminated);
  EXPECT_TRUE(starts_with(message, "u.json: invalid JSON at line 1, column ")) << message;
  EXPECT_NE(message.find("missing closing quote"), std::string::npos);
  EXPECT_LT(message.size(), 300u);

  // a raw tab in a long description, on line 3
  const std::string tab = "{\n\"model\": \"collision\",\n\"description\": \"" + long_text + "\t\"}";
  const std::string tab_message = parse_error(tab);
  EXPECT_TRUE(starts_with(tab_message, "u.json: invalid JSON at line 3, column 200017: "))
      << tab_message;
  EXPECT_EQ(tab_message.find('\t'), std::string::npos);
  EXPECT_LT(tab_message.size(), 300u);
}

// Class 6: a number beyond a double was a json out_of_range (exit 1, no position).
TEST(HostileInput, NumbersBeyondADoubleAreRejectedWithTheirPosition) {
  EXPECT_EQ(parse_error("{\"model\": \"collision\",\n \"x\": 1e309}"),
            "u.json: invalid JSON at line 2, column 11: number overflow parsing \"1e309\"");
  const std::string digits(400, '9');
  const std::string message = parse_error("{\"x\": " + digits + "}");
  // the position is the token's last character, as for nlohmann's syntax errors
  EXPECT_TRUE(starts_with(message, "u.json: invalid JSON at line 1, column 406: number overflow"))
      << message;
  EXPECT_LT(message.size(), 200u);
  EXPECT_EQ(load_error(data("good_collision.json"), {"/impact/u_n=1e999"}),
            "--set /impact/u_n=1e999: the number is out of the range of a double");
}

// Class 6: a --set string that is not UTF-8 validated, then `run` failed writing summary.json.
TEST(HostileInput, OverridesMustBeUtf8) {
  EXPECT_EQ(load_error(data("good_collision.json"), {"/description=\xff\xfe"}),
            "--set /description=\\xff\\xfe: not valid UTF-8");
  EXPECT_EQ(load_error(data("good_collision.json"), {"/description=caf\xc3\xa9"}), "");
  EXPECT_TRUE(is_valid_utf8("\xf0\x9f\x98\x80 \xce\x93"));
  for (const char* bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"}) {
    EXPECT_FALSE(is_valid_utf8(bad)) << one_line(bad);
  }
}

// Class 10: values echoed into messages spanned lines.
TEST(HostileInput, MessagesAreOneLine) {
  const std::string message =
      load_error(data("good_ensemble.json"), {"/model=a\nb\x1b[31m\r" + std::string(500, 'z')});
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.find('\r'), std::string::npos) << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
  EXPECT_NE(message.find("/model: unknown model \"a\\nb\\x1b[31m\\rzzz"), std::string::npos)
      << message;
  EXPECT_LT(message.size(), 400u);
  EXPECT_EQ(one_line("a\tb\nc\x7f \xce\x93 \xff"), "a\\tb\\nc\\x7f \xce\x93 \\xff");
}

// Class 4: work beyond 64 bits ran one step and reported every packing ok.
TEST(HostileInput, RequestedWorkBeyondTheLimitsIsRefused) {
  const json good = data("good_ensemble.json");
  EXPECT_EQ(load_error(good, {"/integrator/steps_per_collision=1e19"}),
            "cases/x.json: /integrator/steps_per_collision: must be at most 1e+06 (--set "
            "/integrator/steps_per_collision=1e19)");
  const std::string stiff = load_error(good, {"/contact/disk_disk/k_n=1e300"});
  EXPECT_TRUE(starts_with(stiff, "cases/x.json: /run: the run takes ")) << stiff;
  EXPECT_NE(stiff.find("steps per packing"), std::string::npos) << stiff;
  const std::string fine_dt = load_error(good, {"/integrator/dt=1e-15"});
  EXPECT_TRUE(starts_with(fine_dt, "cases/x.json: /integrator/dt: 1e-15 s is ")) << fine_dt;
  const std::string long_run = load_error(good, {"/run/measure_time=1e12"});
  EXPECT_TRUE(starts_with(long_run, "cases/x.json: /run: the run takes ")) << long_run;
  // outputs that would fill any disk
  const std::string output =
      load_error(good, {"/run/measure_time=1e7", "/run/sample_interval=1e-4"});
  EXPECT_TRUE(starts_with(output, "cases/x.json: /run/sample_interval: the run would write about "))
      << output;

  // the collision kept every step of 100 collision durations in memory (bad_alloc)
  EXPECT_EQ(load_error(data("good_collision.json"), {"/integrator/steps_per_collision=2e9"}),
            "cases/x.json: /integrator/steps_per_collision: must be at most 100000 (--set "
            "/integrator/steps_per_collision=2e9)");
}

// Class 6: species counts of 10^8 allocated gigabytes before the disk limit rejected them.
TEST(HostileInput, DiskCountsAreCheckedBeforeAllocating) {
  const json good = data("good_ensemble.json");
  EXPECT_EQ(load_error(
                good, {"/packing/species/0/count=100000000", "/packing/species/1/count=100000000"}),
            "cases/x.json: /packing/species/1/count: the species hold 200000000 disks so far, "
            "more than 100000000 (--set /packing/species/1/count=100000000)");
  // a box 10^9 m wide would allocate its cell grid
  const std::string wide = load_error(good, {"/packing/box_width=1e9"});
  EXPECT_TRUE(starts_with(wide, "cases/x.json: /packing/box_width: 1e+09 m is ")) << wide;
  // more memory than any machine holds: 10^5 neighbor slots for each of 9·10^7 disks, ~36 TB
  // (without them the ensemble needs ~100 GB, which a GPU machine of 128 GiB holds)
  const std::string memory =
      load_error(good, {"/packing/species/0/count=10000000", "/ensemble/packings_per_gamma=3",
                        "/neighbor/max_neighbors=100000"});
  EXPECT_TRUE(starts_with(memory, "cases/x.json: /packing/species: the ensemble of ")) << memory;
}

// Issue 20, item 1: a value nested ~300 000 deep, even in "description", overflowed the stack
// in a recursive copy of the document (the scan models: SIGSEGV). Every entry point refuses
// nesting beyond max_json_depth where it parses it.
TEST(HostileInput, DeepNestingIsRefusedWhereItIsParsed) {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  const std::string prefix = "{\"model\": \"three_disk\", \"description\": ";
  // the document is level 1: the array that opens level max_json_depth + 1 is named
  const std::string at = std::to_string(prefix.size() + max_json_depth);
  EXPECT_EQ(parse_error(prefix + nested(300000) + "}"),
            "u.json: invalid JSON at line 1, column " + at + ": nested deeper than 100 levels");
  EXPECT_EQ(parse_error(prefix + nested(max_json_depth) + "}"),
            "u.json: invalid JSON at line 1, column " + at + ": nested deeper than 100 levels");
  EXPECT_EQ(parse_error(prefix + nested(max_json_depth - 1) + "}"), "");
  // brackets inside strings do not count
  EXPECT_EQ(parse_error("{\"description\": \"" + std::string(1000, '[') + "\"}"), "");

  // --set: the value, and the pointer's own levels
  const json good = data("good_ensemble.json");
  const std::string deep_value = load_error(good, {"/description=" + nested(300000)});
  EXPECT_TRUE(starts_with(deep_value, "--set /description=[[[[")) << deep_value.substr(0, 200);
  EXPECT_NE(deep_value.find(": the value nests deeper than a case may (100 levels"),
            std::string::npos)
      << deep_value.substr(0, 200);
  EXPECT_LT(deep_value.size(), 300u);
  std::string long_pointer;
  for (int k = 0; k < 5000; ++k) long_pointer += "/a";
  const std::string deep_pointer = load_error(good, {long_pointer + "=1"});
  EXPECT_NE(deep_pointer.find(": the pointer is nested deeper than a case may be (100 levels)"),
            std::string::npos)
      << deep_pointer.substr(0, 200);
  // a value at the limit with its pointer is taken (and then refused as an unknown key)
  EXPECT_TRUE(starts_with(load_error(good, {"/extra=" + nested(max_json_depth - 2)}),
                          "cases/x.json: /extra: unknown key"));
}

// Issue 20, item 2: an event-driven run asked for more samples than 64 bits count (SIGFPE in
// the output estimate: a zero chunk length); every run time is counted through
// cases::checked_run_steps (MD) or checked the same way (ED) before anything is sized by it.
TEST(HostileInput, EventDrivenRunLengthsBeyondTheLimitAreRefused) {
  const json ed =
      read_json_file(std::string(GRANULAR_SOURCE_DIR) + "/cases/thesis_fig3_11_ed.json");
  for (const char* set : {"/run/measure_time=1e12", "/run/transient_time=1e12",
                          "/run/sample_interval=1e-11", "/run/measure_time=1e+100"}) {
    const std::string message = load_error(ed, {set});
    EXPECT_TRUE(starts_with(message, "cases/x.json: /run: the run takes ")) << message;
    EXPECT_NE(message.find("sample intervals per packing, more than 1e+12"), std::string::npos)
        << message;
  }
  // a duplicate key: the last one counts, as everywhere in a case
  const std::string duplicate = R"({"model": "packing_ensemble", "method": "ed", "run":
      {"measure_time": 1, "measure_time": 1e+100}})";
  EXPECT_EQ(parse_json_text(duplicate, "d.json")["run"]["measure_time"], 1e100);
}

// Issue 20, items 3 and 4: laws the packing engine cannot collide were accepted, then the run
// failed (an event-driven ensemble after writing its first CSVs, exit 1; the wedge with
// "vector::reserve" and no key), and a wedge with gravity 1e308 reported "completed" with null
// results. The e_t tables' extreme collisions are tried at validation, and the wedge's scales
// must be finite.
TEST(HostileInput, LawsTheEngineCannotCollideAreRefusedAtValidation) {
  const std::string cases = std::string(GRANULAR_SOURCE_DIR) + "/cases/";
  const json ed = read_json_file(cases + "thesis_fig3_11_ed.json");
  const std::string heavy = load_error(ed, {"/packing/areal_density=1e8"});
  EXPECT_TRUE(starts_with(heavy,
                          "cases/x.json: /contact/disk_wall: a disk of radius 0.015 m: "
                          "the single collision at |u_t/u_n| = 0.001000 does not end"))
      << heavy;
  // the large-κ rule integrates no table
  EXPECT_EQ(load_error(ed, {"/packing/areal_density=1e8", "/ed/tangential=large_kappa"}), "");

  const json wedge = read_json_file(cases + "wedge_fig6_ed_contact_law.json");
  // the key at fault: the wall's law, or the disk's key whose default the same law collides
  // (issue 32, item 8)
  for (const auto& [set, key] : std::vector<std::pair<std::string, std::string>>{
           {"/contact/gamma_n=1e15", "/contact"},
           {"/contact/k_n=1e-100", "/contact"},
           {"/disk/radius=1e-30", "/disk/radius"},
           {"/disk/areal_density=1e300", "/disk/areal_density"}}) {
    const std::string message = load_error(wedge, {set});
    EXPECT_TRUE(starts_with(message, "cases/x.json: " + key + ": with a disk of radius "))
        << message;
    EXPECT_NE(message.find("the single collision at"), std::string::npos) << message;
  }
  for (const json& w : {wedge, read_json_file(cases + "wedge_fig6_ed_tilt10.json")}) {
    const std::string message = load_error(w, {"/gravity=1e308"});
    EXPECT_TRUE(starts_with(message,
                            "cases/x.json: /drive/gamma: Γ = 2 at f = 80 Hz and g = "
                            "1e+308 m/s² gives the scales A ω_b = inf m/s"))
        << message;
  }
}

// Issue 20: a wedge_md drive of Γ = 1e308 ran with a null wall speed; a random support drive of
// ω_b = 6e229 rad/s hung validation (a quadrature of 10⁶ panels per axis).
TEST(HostileInput, DrivesBeyondADoubleAreRefused) {
  const std::string cases = std::string(GRANULAR_SOURCE_DIR) + "/cases/";
  const std::string wedge =
      load_error(read_json_file(cases + "wedge_fig6_md_tilt_scan.json"), {"/drive/gamma=1e308"});
  EXPECT_NE(wedge.find("/drive/gamma: Γ = 1e+308 at f = 80 Hz gives a drive amplitude"),
            std::string::npos)
      << wedge;
  const std::string supports =
      load_error(read_json_file(cases + "three_disk_fig5_8_5_9_random_scan.json"),
                 {"/supports/omega_b=6e229"});
  EXPECT_NE(supports.find("/supports/omega_b: ω_b = 6e+229 rad/s with A_b = "), std::string::npos)
      << supports;
}

// Class 10: a mass that underflows was blamed on steps_per_collision with dt = -nan.
TEST(HostileInput, MassesOutsideADoubleNameTheirKey) {
  const std::string light =
      load_error(data("good_ensemble.json"), {"/packing/areal_density=1e-320"});
  EXPECT_TRUE(starts_with(light, "cases/x.json: /packing/areal_density: a disk of radius "))
      << light;
  EXPECT_EQ(light.find("nan"), std::string::npos) << light;
  const std::string heavy = load_error(data("good_collision.json"), {"/disks/radius_a=1e160"});
  EXPECT_TRUE(starts_with(heavy, "cases/x.json: /disks/radius_a: a disk of radius 1e+160 m"))
      << heavy;
  const std::string tiny = load_error(data("good_collision.json"), {"/disks/radius_a=1e-200"});
  EXPECT_TRUE(starts_with(tiny, "cases/x.json: /disks/radius_a: a disk of radius 1e-200 m"))
      << tiny;
  const std::string drive = load_error(data("good_ensemble.json"), {"/drive/gamma=1e308"});
  EXPECT_TRUE(starts_with(drive, "cases/x.json: /drive/gamma: ")) << drive;
}

}  // namespace
}  // namespace granular::io
