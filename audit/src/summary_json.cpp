// summary.json: what a reader or a script needs from an audit, small enough to commit.
#include "attention_kernels_json.h"
#include "json_parts.h"
#include "osvs/audit/report.h"
#include "osvs/audit/report_files.h"

namespace osvs::audit {
namespace {

json kernel(const KernelSummary& k) {
  json j = {{"label", k.kut.label()}, {"verdict", verdict(k)}, {"configs", k.configs}};
  if (k.configs == 0) return j;
  j.update({{"elements", k.elements},
            {"max_ulp", number(k.ulp.max())},
            {"mean_ulp", number(k.ulp.mean())},
            {"p99_9_ulp", number(k.ulp.quantile_upper(0.999))},
            {"max_bound_ulp", number(k.y_bound_max)},
            {"tightness", number(k.tightness)},
            {"tightest_config", k.worst_ratio ? describe(k.worst_ratio->config) : ""},
            {"search_tightness", number(k.search_ratio)},
            {"d_rel_max", number(k.d_rel_max)},
            {"d_tightness", number(k.d_tightness)},
            {"violating_rows", k.violating_rows},
            {"claimed_law_failures", k.law_failures},
            {"known_defects", k.known_defects}});
  if (k.worst_ulp) {
    json e = element(k.worst_ulp->worst_ulp, k.worst_ulp->worst_ulp_row);
    e["config"] = describe(k.worst_ulp->config);
    j["largest_error"] = e;
  }
  return j;
}

json by_size(const AuditReport& r) {
  json rows = json::array();
  for (const SizeRow& row : worst_by_size(r)) {
    json j = {{"n", row.n}};
    for (std::size_t k = 0; k < row.cells.size(); ++k) {
      const SizeCell& c = row.cells[k];
      j[r.plan.kernels[k].label()] =
          c.ran ? json{{"max_ulp", number(c.max_ulp)}, {"max_bound_ulp", number(c.max_bound)}}
                : json("not run");
    }
    rows.push_back(j);
  }
  return rows;
}

json failing_configs(const AuditReport& r) {
  json out = json::array();
  for (const ConfigResult& c : r.configs)
    if (std::string(verdict(c)) != "pass")
      out.push_back({{"config", describe(c.config)},
                     {"violating_rows", c.violating_rows},
                     {"first_violations", c.violations}});
  return out;
}

json gate(const AuditReport& r) {
  std::int64_t violations = 0, law_failures = 0, defects = 0;
  for (const KernelSummary& k : summarize_kernels(r)) {
    violations += k.violating_rows;
    law_failures += k.law_failures;
    defects += k.known_defects;
  }
  return {{"release_passes", release_passes(r)},
          {"rule",
           "no output outside its derived bound and no claimed law failing; every attention "
           "kernel within its declared contract and failing no law it does not declare a known "
           "defect"},
          {"attention_kernels_pass", r.attention_kernels.passes()},
          {"violating_rows", violations},
          {"claimed_law_failures", law_failures},
          {"known_defects", defects},
          {"configs_planned", std::ssize(r.plan.configs)},
          {"configs_audited", std::ssize(r.configs)},
          {"configs_not_run", not_run_list(r)}};
}

}  // namespace

std::string summary_json_text(const AuditReport& r) {
  json kernels = json::array();
  for (const KernelSummary& k : summarize_kernels(r)) kernels.push_back(kernel(k));
  const json j = {{"osvs_audit_summary", 1},
                  {"provenance", provenance(r.provenance)},
                  {"options",
                   {{"quick", r.options.quick},
                    {"seed", r.options.seed},
                    {"executor", r.options.executor},
                    {"search_budget", search_budget(r.plan.search)}}},
                  {"gate", gate(r)},
                  {"kernels", kernels},
                  {"worst_vs_n", by_size(r)},
                  {"configs_not_passing", failing_configs(r)},
                  {"attention_kernels", attention_kernels_summary(r.attention_kernels)},
                  {"timing", timing(r)}};
  return j.dump(1) + "\n";
}

void write_summary(const AuditReport& r, const std::filesystem::path& dir) {
  write_text_file(dir / "summary.json", summary_json_text(r));
}

}  // namespace osvs::audit
