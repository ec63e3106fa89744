// audit.json and worst_cases.json: every number of the run, floats of inputs as hex floats.
#include <cmath>

#include "attention_kernels_json.h"
#include "json_parts.h"
#include "osvs/audit/error_stats.h"
#include "osvs/audit/report.h"
#include "osvs/audit/report_files.h"
#include "osvs/replay/hex_float.h"

namespace osvs::audit {
namespace {

json histogram(const ErrorStats& s) {
  json edges = json::array(), counts = json::array();
  for (double e : ulp_bin_edges()) edges.push_back(e);
  edges.push_back("inf");
  for (std::int64_t c : s.counts()) counts.push_back(c);
  return {{"upper_edges_ulp", edges}, {"counts", counts}};
}

json stats(const ErrorStats& s) {
  return {{"elements", s.count()},
          {"max", number(s.max())},
          {"mean", number(s.mean())},
          {"p99_9_upper", number(s.quantile_upper(0.999))}};
}

json config(const ConfigResult& c) {
  return {
      {"kernel", to_string(c.config.kut.kernel)},
      {"combine", c.config.kut.facts().folds_with_combine ? to_string(c.config.kut.combine) : ""},
      {"label", c.config.kut.label()},
      {"verdict", verdict(c)},
      {"block", c.config.block},
      {"n", c.config.n},
      {"family", c.config.family->name},
      {"rows", c.config.rows},
      {"elements", c.elements},
      {"ulp", stats(c.ulp)},
      {"y_bound_max_ulp", number(c.y_bound_max)},
      {"tightness", number(c.tightness)},
      {"worst_ulp", element(c.worst_ulp, c.worst_ulp_row)},
      {"worst_ratio", element(c.worst_ratio, c.worst_ratio_row)},
      {"d_rel_max", number(c.d_rel_max)},
      {"d_bound_max", number(c.d_bound_max)},
      {"d_tightness", number(c.d_tightness)},
      {"violating_rows", c.violating_rows},
      {"violations", c.violations},
      {"mpfr_fallbacks", c.mpfr_fallbacks},
      {"laws", json_value(c.laws)},
      {"seconds", c.seconds}};
}

json search_case(const SearchCase& s) {
  json row = json::array();
  for (float v : s.row) row.push_back(format_hex_float(v));
  return {{"kernel", s.kut.label()},
          {"block", s.block},
          {"n", std::ssize(s.row)},
          {"ratio", number(s.audit.ratio)},
          {"within_bound", s.audit.ok},
          {"worst_ratio", element(s.audit.worst_ratio, 0)},
          {"worst_ulp", element(s.audit.worst_ulp, 0)},
          {"d_rel", number(s.audit.d_rel)},
          {"d_bound", number(s.audit.d_bound)},
          {"origin", s.origin},
          {"generation", s.generation},
          {"row", row}};
}

json perf(const PerfAudit& p) {
  json shapes = json::array();
  for (const ShapeTiming& s : p.shapes) {
    json kernels = json::array();
    for (const KernelTiming& k : s.kernels)
      kernels.push_back({{"kernel", to_string(k.kernel)},
                         {"combine", to_string(k.combine)},
                         {"block", k.block},
                         {"ms", k.ms},
                         {"fraction_of_copy", k.fraction_of_copy}});
    json ratios = json::object();
    for (CombineKind c : kAllCombines) ratios[to_string(c)] = three_over_two(s, c);
    shapes.push_back({{"rows", s.rows},
                      {"cols", s.cols},
                      {"copy_ms", s.copy_ms},
                      {"copy_gbps", s.copy_gbps},
                      {"kernels", kernels},
                      {"three_pass_over_two_pass", ratios}});
  }
  return {{"ran", p.ran}, {"skipped_because", p.skipped_because}, {"shapes", shapes}};
}

}  // namespace

void write_json(const AuditReport& r, const std::filesystem::path& dir) {
  write_detail_file(dir, "audit.json", audit_json_text(r));
}

void write_worst_cases(const AuditReport& r, const std::filesystem::path& dir) {
  write_detail_file(dir, "worst_cases.json", worst_cases_json_text(r));
}

/// The attention section; per-case tightness in generation order (the plot reads it).
json attention_json(const AttentionAudit& a) {
  const json laws = attention_laws_json(a);
  return {{"executor", a.executor}, {"not_run", a.not_run}, {"passes", a.passes()}, {"laws", laws}};
}

std::string audit_json_text(const AuditReport& r) {
  json kernels = json::array();
  for (const KernelSummary& k : summarize_kernels(r))
    kernels.push_back({{"label", k.kut.label()},
                       {"configs", k.configs},
                       {"elements", k.elements},
                       {"ulp", stats(k.ulp)},
                       {"histogram", histogram(k.ulp)},
                       {"y_bound_max_ulp", number(k.y_bound_max)},
                       {"tightness", number(k.tightness)},
                       {"worst_config", k.worst_ratio ? describe(k.worst_ratio->config) : ""},
                       {"search_ratio", number(k.search_ratio)},
                       {"d_rel_max", number(k.d_rel_max)},
                       {"d_tightness", number(k.d_tightness)},
                       {"violating_rows", k.violating_rows},
                       {"law_failures", k.law_failures},
                       {"known_defects", k.known_defects}});
  json laws = json::array();
  for (const LawSummary& l : summarize_laws(r))
    laws.push_back({{"kernel", l.kernel},
                    {"property", l.property},
                    {"exact", l.exact},
                    {"runs", l.runs},
                    {"holds", l.holds},
                    {"not_applicable", l.not_applicable},
                    {"claimed_failures", l.claimed_failures},
                    {"unclaimed_failures", l.unclaimed_failures},
                    {"errors", l.errors},
                    {"first_failure", l.first_failure}});
  json configs = json::array();
  for (const ConfigResult& c : r.configs) configs.push_back(config(c));
  json sizes = r.plan.sizes, blocks = r.plan.blocks;
  json families = json::array();
  for (const InputFamily* f : r.plan.families)
    families.push_back({{"name", f->name}, {"description", f->description}});
  const json j = {
      {"osvs_audit_format", 1},
      {"provenance", provenance(r.provenance)},
      {"options",
       {{"quick", r.options.quick}, {"seed", r.options.seed}, {"executor", r.options.executor}}},
      {"search_budget", search_budget(r.plan.search)},
      {"plan",
       {{"sizes", sizes},
        {"blocks", blocks},
        {"families", families},
        {"configs", std::ssize(r.plan.configs)},
        {"elements", r.plan.elements}}},
      {"exp_ulp", r.exp_ulp},
      {"summary",
       {{"release_passes", release_passes(r)},
        {"configs_audited", std::ssize(r.configs)},
        {"configs_not_run", not_run_list(r)}}},
      {"timing", timing(r)},
      {"kernels", kernels},
      {"laws", laws},
      {"search",
       {{"rounds", r.search.rounds},
        {"seconds", r.search.seconds},
        {"rows_evaluated", r.search.rows_evaluated},
        {"elements_evaluated", r.search.elements_evaluated},
        {"improvements", r.search.improvements}}},
      {"regression_files", r.regression_files},
      {"performance", perf(r.perf)},
      {"attention", attention_json(r.attention)},
      {"attention_kernels", attention_kernels_json(r.attention_kernels)},
      {"configs", configs}};
  return j.dump(1) + "\n";
}

std::string worst_cases_json_text(const AuditReport& r) {
  json cases = json::array();
  for (const SearchCase& s : r.search.worst) cases.push_back(search_case(s));
  const json j = {{"about",
                   "the rows with the highest error/bound ratio per kernel, found by the "
                   "audit's hill-climb; floats as hex, exact"},
                  {"provenance", provenance(r.provenance)},
                  {"seed", r.options.seed},
                  {"exp_ulp", r.exp_ulp},
                  {"cases", cases}};
  return j.dump(1) + "\n";
}

}  // namespace osvs::audit
