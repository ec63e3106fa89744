// The shard file: an AuditReport written and read back losslessly. Doubles are JSON numbers
// printed with 17 significant digits (they read back to the same bits) or, when not finite, the
// strings "inf", "-inf", "nan"; floats of rows and elements are hex floats (replay/hex_float.h).
// Configurations are stored with their plan index and checked against the plan rebuilt from the
// recorded options, so a file can only be read back into the plan it was made from.
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "attention_kernels_json.h"
#include "json_parts.h"
#include "osvs/audit/report.h"
#include "osvs/audit/report_files.h"
#include "osvs/audit/shard.h"
#include "osvs/replay/hex_float.h"

namespace osvs::audit {
namespace {

constexpr int kFormatVersion = 2;  // 2: the attention kernels' section

// --- values ---------------------------------------------------------------------------------

json hex_of(float v) {
  return format_hex_float(v);
}

float float_of(const json& j) {
  const auto v = parse_hex_float(j.get<std::string>());
  if (!v) throw std::runtime_error("'" + j.get<std::string>() + "' is not a hex float");
  return *v;
}

json floats(const std::vector<float>& v) {
  json out = json::array();
  for (float f : v) out.push_back(hex_of(f));
  return out;
}

std::vector<float> floats_of(const json& j) {
  std::vector<float> out;
  for (const json& v : j) out.push_back(float_of(v));
  return out;
}

template <class T>
std::optional<T> optional_of(const json& j) {
  return j.is_null() ? std::nullopt : std::optional<T>(j.get<T>());
}

template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

// --- the report's parts ---------------------------------------------------------------------

json stats_json(const ErrorStats& s) {
  return {{"count", s.count()},
          {"sum", number(s.sum())},
          {"max", number(s.max())},
          {"counts", s.counts()}};
}

ErrorStats stats_of(const json& j) {
  return ErrorStats::from_parts(j.at("count").get<std::int64_t>(), number_of(j.at("sum")),
                                number_of(j.at("max")),
                                j.at("counts").get<std::vector<std::int64_t>>());
}

}  // namespace

// A configuration's results by the list of its fields (json_parts.h's record_json and record_of)
// and the shard file's form of a worst element, where those find them: in osvs::audit itself
// (argument-dependent lookup does not look into an unnamed namespace), local to this file.

static json json_value(const WorstElement& w) {
  return {{"index", w.index},     {"x", hex_of(w.x)},
          {"y", hex_of(w.y)},     {"reference", number(w.reference)},
          {"ulp", number(w.ulp)}, {"bound", number(w.bound)}};
}

static void read_value(const json& j, WorstElement& w) {
  w = {j.at("index").get<std::int64_t>(), float_of(j.at("x")),    float_of(j.at("y")),
       number_of(j.at("reference")),      number_of(j.at("ulp")), number_of(j.at("bound"))};
}

/// A configuration's results, its histogram in full; its Config is not among them (config_json
/// and config_of: the plan's at the recorded index).
static void json_fields(RecordOf<ConfigResult> auto& c, auto& io) {
  io("elements", c.elements);
  io("ulp", c.ulp, stats_json, stats_of);
  io("y_bound_max", c.y_bound_max);
  io("tightness", c.tightness);
  io("worst_ulp", c.worst_ulp);
  io("worst_ratio", c.worst_ratio);
  io("worst_ulp_row", c.worst_ulp_row);
  io("worst_ratio_row", c.worst_ratio_row);
  io("d_rel_max", c.d_rel_max);
  io("d_bound_max", c.d_bound_max);
  io("d_tightness", c.d_tightness);
  io("violating_rows", c.violating_rows);
  io("violations", c.violations);
  io("violation_rows", c.violation_rows);
  io("worst_row", c.worst_row, floats, floats_of);
  io("mpfr_fallbacks", c.mpfr_fallbacks);
  io("laws", c.laws);
  io("seconds", c.seconds);
}

namespace {

json config_json(std::size_t plan_index, const ConfigResult& c) {
  json j = {{"plan_index", plan_index}, {"name", describe(c.config)}};
  j.update(record_json(c));
  return j;
}

/// A configuration's results, its Config taken from the plan at its recorded index.
ConfigResult config_of(const json& j, const Plan& plan) {
  const auto k = j.at("plan_index").get<std::size_t>();
  if (k >= plan.configs.size())
    throw std::runtime_error("configuration index " + std::to_string(k) + " outside the plan (" +
                             std::to_string(plan.configs.size()) + " configurations)");
  ConfigResult c;
  c.config = plan.configs[k];
  if (describe(c.config) != j.at("name").get<std::string>())
    throw std::runtime_error("configuration " + std::to_string(k) + " is '" +
                             j.at("name").get<std::string>() + "' in the file, '" +
                             describe(c.config) + "' in the plan of its options");
  read_value(j, c);
  return c;
}

json kut_json(const KernelUnderTest& k) {
  return {{"kernel", to_string(k.kernel)}, {"combine", to_string(k.combine)}};
}

KernelUnderTest kut_of(const json& j) {
  const auto kernel = parse_kernel(j.at("kernel").get<std::string>());
  const auto combine = parse_combine(j.at("combine").get<std::string>());
  if (!kernel || !combine)
    throw std::runtime_error("unknown kernel " + j.dump() + " (not in this build of osvs)");
  return {*kernel, *combine};
}

json row_audit_json(const RowAudit& a) {
  return {{"ratio", number(a.ratio)},
          {"y_bound_max", number(a.y_bound_max)},
          {"worst_ulp", json_value(a.worst_ulp)},
          {"worst_ratio", json_value(a.worst_ratio)},
          {"d_rel", number(a.d_rel)},
          {"d_bound", number(a.d_bound)},
          {"ok", a.ok},
          {"explanation", a.explanation},
          {"mpfr_fallbacks", a.mpfr_fallbacks}};
}

RowAudit row_audit_of(const json& j) {
  RowAudit a;
  a.ratio = number_of(j.at("ratio"));
  a.y_bound_max = number_of(j.at("y_bound_max"));
  read_value(j.at("worst_ulp"), a.worst_ulp);
  read_value(j.at("worst_ratio"), a.worst_ratio);
  a.d_rel = number_of(j.at("d_rel"));
  a.d_bound = number_of(j.at("d_bound"));
  a.ok = j.at("ok").get<bool>();
  a.explanation = j.at("explanation").get<std::string>();
  a.mpfr_fallbacks = j.at("mpfr_fallbacks").get<std::int64_t>();
  return a;
}

json search_json(const SearchResult& s) {
  json worst = json::array();
  for (const SearchCase& c : s.worst)
    worst.push_back({{"kut", kut_json(c.kut)},
                     {"block", c.block},
                     {"row", floats(c.row)},
                     {"origin", c.origin},
                     {"generation", c.generation},
                     {"audit", row_audit_json(c.audit)}});
  return {{"worst", worst},
          {"rows_evaluated", s.rows_evaluated},
          {"elements_evaluated", s.elements_evaluated},
          {"improvements", s.improvements},
          {"rounds", s.rounds},
          {"seconds", number(s.seconds)}};
}

SearchResult search_of(const json& j) {
  SearchResult s;
  for (const json& c : j.at("worst"))
    s.worst.push_back({kut_of(c.at("kut")), c.at("block").get<int>(), floats_of(c.at("row")),
                       c.at("origin").get<std::string>(), c.at("generation").get<int>(),
                       row_audit_of(c.at("audit"))});
  s.rows_evaluated = j.at("rows_evaluated").get<std::int64_t>();
  s.elements_evaluated = j.at("elements_evaluated").get<std::int64_t>();
  s.improvements = j.at("improvements").get<std::int64_t>();
  s.rounds = j.at("rounds").get<std::int64_t>();
  s.seconds = number_of(j.at("seconds"));
  return s;
}

json perf_json(const PerfAudit& p) {
  json shapes = json::array();
  for (const ShapeTiming& s : p.shapes) {
    json kernels = json::array();
    for (const KernelTiming& k : s.kernels)
      kernels.push_back({{"kut", kut_json({k.kernel, k.combine})},
                         {"block", k.block},
                         {"ms", number(k.ms)},
                         {"fraction_of_copy", number(k.fraction_of_copy)}});
    shapes.push_back({{"rows", s.rows},
                      {"cols", s.cols},
                      {"copy_ms", number(s.copy_ms)},
                      {"copy_gbps", number(s.copy_gbps)},
                      {"kernels", kernels}});
  }
  return {{"ran", p.ran}, {"skipped_because", p.skipped_because}, {"shapes", shapes}};
}

PerfAudit perf_of(const json& j) {
  PerfAudit p;
  p.ran = j.at("ran").get<bool>();
  p.skipped_because = j.at("skipped_because").get<std::string>();
  for (const json& s : j.at("shapes")) {
    ShapeTiming t{s.at("rows").get<std::int64_t>(),
                  s.at("cols").get<std::int64_t>(),
                  number_of(s.at("copy_ms")),
                  number_of(s.at("copy_gbps")),
                  {}};
    for (const json& k : s.at("kernels")) {
      const KernelUnderTest kut = kut_of(k.at("kut"));
      t.kernels.push_back({kut.kernel, kut.combine, k.at("block").get<int>(), number_of(k.at("ms")),
                           number_of(k.at("fraction_of_copy"))});
    }
    p.shapes.push_back(std::move(t));
  }
  return p;
}

json attention_json(const AttentionAudit& a) {
  const json laws = attention_laws_json(a);
  return {{"executor", a.executor},
          {"not_run", a.not_run},
          {"laws", laws},
          {"seconds", number(a.seconds)}};
}

AttentionAudit attention_of(const json& j) {
  AttentionAudit a;
  a.executor = j.at("executor").get<std::string>();
  a.not_run = j.at("not_run").get<std::string>();
  for (const json& l : j.at("laws")) {
    AttentionLawAudit law;
    law.law = l.at("law").get<std::string>();
    law.cases = l.at("cases").get<int>();
    law.vacuous = l.at("vacuous").get<int>();
    law.worst_tightness = number_of(l.at("worst_tightness"));
    for (const json& t : l.at("tightness")) law.tightness.push_back(number_of(t));
    law.violations = l.at("violations").get<std::int64_t>();
    law.first_violation = l.at("first_violation").get<std::string>();
    a.laws.push_back(std::move(law));
  }
  a.seconds = number_of(j.at("seconds"));
  return a;
}

/// The options that decide the plan and every input; where the reports go is not among them.
json options_json(const AuditOptions& o) {
  json j = {{"executor", o.executor},
            {"quick", o.quick},
            {"kernels", o.kernels},
            {"combines", o.combines},
            {"blocks", o.blocks},
            {"families", o.families},
            {"budget_seconds", optional_json(o.budget.seconds)},
            {"budget_elements", optional_json(o.budget.elements)},
            {"search_rounds", o.search_rounds},
            {"search_seconds", number(o.search_seconds)},
            {"seed", o.seed},
            {"perf", o.perf},
            {"attention", o.attention},
            {"attention_cases", o.attention_cases}};
  if (!o.cols.empty()) j["cols"] = o.cols;  // absent: the plan's row lengths
  return j;
}

AuditOptions options_of(const json& j) {
  AuditOptions o;
  o.executor = j.at("executor").get<std::string>();
  o.quick = j.at("quick").get<bool>();
  o.kernels = j.at("kernels").get<std::vector<std::string>>();
  o.combines = j.at("combines").get<std::vector<std::string>>();
  o.blocks = j.at("blocks").get<std::vector<int>>();
  if (j.contains("cols")) o.cols = j.at("cols").get<std::vector<std::int64_t>>();
  o.families = j.at("families").get<std::vector<std::string>>();
  o.budget.seconds = optional_of<double>(j.at("budget_seconds"));
  o.budget.elements = optional_of<std::int64_t>(j.at("budget_elements"));
  o.search_rounds = j.at("search_rounds").get<std::int64_t>();
  o.search_seconds = number_of(j.at("search_seconds"));
  o.seed = j.at("seed").get<std::uint64_t>();
  o.perf = j.at("perf").get<bool>();
  o.attention = j.at("attention").get<bool>();
  o.attention_cases = j.at("attention_cases").get<int>();
  return o;
}

json provenance_json(const Provenance& p) {
  return {{"commit", p.osvs_commit}, {"date", p.date}, {"executor", p.executor},
          {"device", p.device},      {"nvcc", p.nvcc}, {"found_by", p.found_by}};
}

Provenance provenance_of(const json& j) {
  Provenance p;
  p.osvs_commit = j.at("commit").get<std::string>();
  p.date = j.at("date").get<std::string>();
  p.executor = j.at("executor").get<std::string>();
  p.device = j.at("device").get<std::string>();
  p.nvcc = j.at("nvcc").get<std::string>();
  p.found_by = j.at("found_by").get<std::string>();
  return p;
}

/// The plan index of every configuration of r (r.plan holds the whole plan; r.configs and
/// r.not_run are the shard's, in plan order).
std::size_t index_in_plan(const Plan& plan, const Config& c, std::size_t from) {
  for (std::size_t k = from; k < plan.configs.size(); ++k)
    if (describe(plan.configs[k]) == describe(c)) return k;
  throw std::logic_error("configuration '" + describe(c) + "' is not in the plan");
}

}  // namespace

void write_shard_file(const AuditReport& r, const std::filesystem::path& dir) {
  json configs = json::array(), not_run = json::array();
  std::size_t k = 0;
  for (const ConfigResult& c : r.configs) {
    k = index_in_plan(r.plan, c.config, k);
    configs.push_back(config_json(k, c));
  }
  k = 0;
  for (const Config& c : r.not_run) not_run.push_back(k = index_in_plan(r.plan, c, k));
  const json doc = {{"format", "osvs audit shard"},
                    {"version", kFormatVersion},
                    {"shard", {{"index", r.shard.index}, {"count", r.shard.count}}},
                    {"options", options_json(r.options)},
                    {"provenance", provenance_json(r.provenance)},
                    {"gpu", r.gpu},
                    {"exp_ulp", number(r.exp_ulp)},
                    {"cpu_threads", r.cpu_threads},
                    {"launchers", r.launchers},
                    {"devices", r.devices},
                    {"configs", configs},
                    {"not_run", not_run},
                    {"sweep_seconds", number(r.sweep_seconds)},
                    {"search", search_json(r.search)},
                    {"regression_files", r.regression_files},
                    {"perf", perf_json(r.perf)},
                    {"attention", attention_json(r.attention)},
                    {"attention_kernels", attention_kernels_json(r.attention_kernels)},
                    {"total_seconds", number(r.total_seconds)}};
  write_detail_file(dir, kShardFileName, doc.dump(1) + "\n");
}

AuditReport read_shard_file(const std::filesystem::path& dir) {
  const std::string where = (dir / kShardFileName).string();
  try {
    const json j = json::parse(read_detail_file(dir, kShardFileName));
    if (j.value("format", "") != "osvs audit shard")
      throw std::runtime_error("not an osvs audit shard file");
    if (j.at("version").get<int>() != kFormatVersion)
      throw std::runtime_error("format version " + j.at("version").dump() + ", this osvs reads " +
                               std::to_string(kFormatVersion));
    AuditReport r;
    r.shard = {j.at("shard").at("index").get<int>(), j.at("shard").at("count").get<int>()};
    if (r.shard.count < 1 || r.shard.index < 0 || r.shard.index >= r.shard.count)
      throw std::runtime_error("shard " + j.at("shard").dump() + " is not i/n with 0 <= i < n");
    r.options = options_of(j.at("options"));
    r.provenance = provenance_of(j.at("provenance"));
    r.gpu = j.at("gpu").get<bool>();
    r.plan = make_plan(r.options, r.gpu);
    r.exp_ulp = number_of(j.at("exp_ulp"));
    r.cpu_threads = j.at("cpu_threads").get<int>();
    r.launchers = j.at("launchers").get<int>();
    r.devices = j.at("devices").get<int>();
    for (const json& c : j.at("configs")) r.configs.push_back(config_of(c, r.plan));
    for (const json& k : j.at("not_run")) {
      const auto i = k.get<std::size_t>();
      if (i >= r.plan.configs.size())
        throw std::runtime_error("not-run index " + std::to_string(i) + " outside the plan");
      r.not_run.push_back(r.plan.configs[i]);
    }
    r.sweep_seconds = number_of(j.at("sweep_seconds"));
    r.search = search_of(j.at("search"));
    r.regression_files = j.at("regression_files").get<std::vector<std::string>>();
    r.perf = perf_of(j.at("perf"));
    r.attention = attention_of(j.at("attention"));
    r.attention_kernels = attention_kernels_of(j.at("attention_kernels"));
    r.total_seconds = number_of(j.at("total_seconds"));
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
}

}  // namespace osvs::audit
