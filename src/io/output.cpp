#include "granular/io/output.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "granular/io/provenance.hpp"

namespace granular::io {

void write_json_atomic(const std::filesystem::path& path, const nlohmann::json& j) {
  write_file_atomic(path, j.dump(2) + "\n");
}

nlohmann::json json_number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json json_count(double x) {
  // 2^63: the first double beyond int64
  if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9223372036854775808.0)
    return nlohmann::json(static_cast<std::int64_t>(x));
  return json_number(x);
}

std::string format_value(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string duration_text(double s) {
  if (!(s < 120.0))
    return s < 7200.0 ? format_value("%.1f min", s / 60.0) : format_value("%.1f h", s / 3600.0);
  return format_value("%.0f s", s);
}

nlohmann::json summary_header(const std::string& model, const nlohmann::json& case_echo,
                              const std::vector<TableSpec>& tables) {
  nlohmann::json units = nlohmann::json::object();
  for (const TableSpec& t : tables) {
    nlohmann::json columns = nlohmann::json::array();
    for (const Column& c : t.columns) columns.push_back({{"name", c.name}, {"unit", c.unit}});
    units[t.file] = std::move(columns);
  }
  return {{"model", model},
          {"granular_version", GRANULAR_VERSION},
          {"case", case_echo},
          {"provenance", provenance()},
          {"tables", std::move(units)}};
}

void put_run_status(nlohmann::json& summary, const std::string& status, const std::string& reason,
                    const std::string& detail) {
  summary["status"] = status;
  summary["reason"] = reason.empty() ? nlohmann::json() : nlohmann::json(reason);
  summary["detail"] = detail.empty() ? nlohmann::json() : nlohmann::json(detail);
}

}  // namespace granular::io
