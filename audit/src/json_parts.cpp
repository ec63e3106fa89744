#include "json_parts.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "osvs/replay/hex_float.h"

namespace osvs::audit {

json number(double v) {
  return std::isfinite(v) ? json(v) : json(v > 0 ? "inf" : (v < 0 ? "-inf" : "nan"));
}

double number_of(const json& j) {
  if (j.is_number()) return j.get<double>();
  const std::string s = j.get<std::string>();
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw std::runtime_error("'" + s + "' is not a number");
}

json provenance(const Provenance& p) {
  return {{"commit", p.osvs_commit},
          {"date", p.date},
          {"executor", p.executor},
          {"device", p.device},
          {"nvcc", p.nvcc}};
}

json element(const WorstElement& w, std::int64_t row) {
  return {{"row", row},
          {"index", w.index},
          {"x", format_hex_float(w.x)},
          {"y", format_hex_float(w.y)},
          {"reference", format_hex_double(w.reference)},
          {"ulp", number(w.ulp)},
          {"bound_ulp", number(w.bound)}};
}

json timing(const AuditReport& r) {
  return {{"sweep_seconds", r.sweep_seconds},   {"elements_per_second", elements_per_second(r)},
          {"search_seconds", r.search.seconds}, {"total_seconds", r.total_seconds},
          {"sweep_launchers", r.launchers},     {"sweep_devices", r.devices},
          {"cpu_threads", r.cpu_threads}};
}

json not_run_list(const AuditReport& r) {
  json out = json::array();
  for (const Config& c : r.not_run) out.push_back(describe(c));
  return out;
}

json search_budget(const SearchBudget& b) {
  json j = {{"rounds", b.rounds}};
  if (b.seconds) j["seconds"] = *b.seconds;
  return j;
}

json attention_laws_json(const AttentionAudit& a) {
  json laws = json::array();
  for (const AttentionLawAudit& l : a.laws) {
    json tightness = json::array();
    for (double t : l.tightness) tightness.push_back(number(t));
    laws.push_back({{"law", l.law},
                    {"cases", l.cases},
                    {"vacuous", l.vacuous},
                    {"worst_tightness", number(l.worst_tightness)},
                    {"violations", l.violations},
                    {"first_violation", l.first_violation},
                    {"tightness", tightness}});
  }
  return laws;
}

}  // namespace osvs::audit
