// Scans over any numeric keys of a case (include/granular/cases/scan.hpp).
#include "granular/cases/scan.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>

#include "granular/io/output.hpp"
#include "granular/io/table.hpp"

namespace granular::cases {

namespace {

using io::CaseError;

// At most this many points (each a whole run).
constexpr std::size_t kMaxPoints = 1000;

struct Point {
  std::vector<double> values;  // one per scanned key
  LoadedCase loaded;
};

class ScanCase : public Case {
 public:
  ScanCase(std::vector<std::string> keys, std::vector<Point> points)
      : keys_(std::move(keys)), points_(std::move(points)) {}

  // the scan's size and keys, then the first point's groups
  void describe(Description& d) const override {
    d.group("scan");
    d.out << "scan: " << d.count("points", static_cast<std::int64_t>(points_.size()))
          << " points over";
    for (const std::string& k : keys_) d.out << " " << d.word_item("keys", k);
    d.out << "; the first:\n";
    points_.front().loaded.spec->describe(d);
  }

  void check_run(const RunContext& ctx) const override {
    if (ctx.request.resume) throw CaseError("", "--resume", "a scan runs its points afresh");
    if (ctx.request.packings) throw CaseError("", "--packings", "a scan runs whole cases");
    points_.front().loaded.spec->check_run(ctx);
  }

  RunEnd run(const RunContext& ctx) const override {
    std::vector<nlohmann::json> summaries;
    for (std::size_t k = 0; k < points_.size(); ++k) {
      const std::filesystem::path dir = ctx.out_dir / ("point_" + std::to_string(k));
      std::filesystem::create_directories(dir);
      RunContext point = ctx;
      point.out_dir = dir;
      point.case_echo = points_[k].loaded.echo;
      if (ctx.progress) {
        *ctx.progress << "scan point " << k + 1 << "/" << points_.size() << ":";
        for (std::size_t i = 0; i < keys_.size(); ++i)
          *ctx.progress << " " << keys_[i] << " = " << io::round_trip(points_[k].values[i]);
        *ctx.progress << "\n";
      }
      if (points_[k].loaded.spec->run(point) == RunEnd::interrupted) return RunEnd::interrupted;
      std::ifstream in(dir / "summary.json");
      summaries.push_back(nlohmann::json::parse(in));
    }
    // scan.csv: the scanned keys, then each point's status and the numbers of its summary
    io::TableSpec spec{"scan.csv", "one row per point of the scan", {}};
    for (const std::string& k : keys_) spec.columns.push_back({k.substr(1), "", "scanned key"});
    std::vector<std::string> numbers;
    const bool has_status = summaries.front().contains("status");
    if (has_status) spec.columns.push_back({"status", "", "how the point's run ended"});
    for (const auto& [key, value] : summaries.front().items()) {
      if (!value.is_number() || key.find(',') != std::string::npos) continue;
      numbers.push_back(key);
      spec.columns.push_back({key, "", "the point's summary.json"});
    }
    io::TableText csv(spec);
    for (std::size_t k = 0; k < points_.size(); ++k) {
      for (double v : points_[k].values) csv.num(v);
      const nlohmann::json& s = summaries[k];
      if (has_status) csv.text(s.value("status", std::string()));
      for (const std::string& key : numbers)
        s.contains(key) && s[key].is_number() ? csv.num(s[key].get<double>()) : csv.text("");
      csv.end_row();
    }
    io::write_file_atomic(ctx.out_dir / "scan.csv", csv.str());
    nlohmann::json summary = run_summary_head(points_.front().loaded.model, ctx.case_echo);
    // the scan's status is its points': completed only when every point's run completed (or,
    // for the supported disk, ended "ok"); else the first other status, and how many ended so
    std::string status = "completed";
    int unfinished = 0;
    for (const nlohmann::json& p : summaries) {
      const std::string s = p.value("status", std::string("completed"));
      if (s == "completed" || s == "ok") continue;
      if (unfinished++ == 0) status = s;
    }
    summary["status"] = status;
    if (unfinished > 0) summary["points_not_completed"] = unfinished;
    summary["scan"] = {{"keys", keys_}, {"points", points_.size()}, {"file", "scan.csv"}};
    io::write_json_atomic(ctx.out_dir / "summary.json", summary);
    return RunEnd::complete;
  }

 private:
  std::vector<std::string> keys_;
  std::vector<Point> points_;
};

}  // namespace

nlohmann::ordered_json scan_schema() {
  using json = nlohmann::ordered_json;
  return json{{"type", "object"},
              {"description",
               "the same case at every combination of these keys' values: "
               "{\"/json/pointer\": [numbers]}"},
              {"minProperties", 1},
              {"propertyNames",
               json{{"pattern", "^/[^=,]+$"},
                    {"not", json{{"anyOf", json::array({json{{"const", "/model"}},
                                                        json{{"pattern", "^/scan(/|$)"}}})}}}}},
              {"additionalProperties",
               json{{"type", "array"}, {"minItems", 1}, {"items", json{{"type", "number"}}}}}};
}

std::unique_ptr<Case> load_scan(const nlohmann::json& doc, const std::string& file,
                                const nlohmann::json& scan) {
  if (!scan.is_object() || scan.empty())
    throw CaseError(file, "/scan", "must be an object of \"/json/pointer\": [values]");
  std::vector<std::string> keys;
  std::vector<std::vector<double>> values;
  std::size_t count = 1;
  for (const auto& [pointer, list] : scan.items()) {
    const std::string where = "/scan/" + io::pointer_token(pointer);
    if (pointer.size() < 2 || pointer[0] != '/' || pointer.find('=') != std::string::npos)
      throw CaseError(file, where, "the key must be a JSON pointer such as \"/drive/gamma\"");
    if (pointer.find(',') != std::string::npos)
      throw CaseError(file, where, "cannot contain a comma (the key names a column of scan.csv)");
    if (pointer == "/scan" || pointer.rfind("/scan/", 0) == 0 || pointer == "/model")
      throw CaseError(file, where, "cannot scan the model or the scan itself");
    if (!list.is_array() || list.empty())
      throw CaseError(file, where, "must be a non-empty list of numbers");
    std::vector<double> v;
    for (const nlohmann::json& x : list) {
      if (!x.is_number()) throw CaseError(file, where, "must be a non-empty list of numbers");
      v.push_back(x.get<double>());
    }
    count *= v.size();
    if (count > kMaxPoints)
      throw CaseError(file, "/scan", "more than " + std::to_string(kMaxPoints) + " points");
    keys.push_back(pointer);
    values.push_back(std::move(v));
  }
  // every combination, the first key (in pointer order: JSON objects are unordered) outermost
  std::vector<Point> points;
  std::vector<std::size_t> index(keys.size(), 0);
  for (std::size_t n = 0; n < count; ++n) {
    Point p;
    std::vector<std::string> sets;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      p.values.push_back(values[i][index[i]]);
      sets.push_back(keys[i] + "=" + io::round_trip(values[i][index[i]]));
    }
    try {
      nlohmann::json point = doc;
      for (const std::string& s : sets) apply_override(point, s, file);
      p.loaded = load_case_json(std::move(point), file);
    } catch (const CaseError& e) {
      std::string which = " (scan point " + std::to_string(n + 1) + ":";
      for (const std::string& s : sets) which += " " + s;
      throw CaseError(e.file(), e.pointer(), e.detail() + which + ")");
    }
    points.push_back(std::move(p));
    for (std::size_t i = keys.size(); i-- > 0;) {
      if (++index[i] < values[i].size()) break;
      index[i] = 0;
    }
  }
  return std::make_unique<ScanCase>(std::move(keys), std::move(points));
}

}  // namespace granular::cases
