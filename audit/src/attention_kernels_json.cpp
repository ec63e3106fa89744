#include "attention_kernels_json.h"
#include "json_parts.h"

#include <cmath>
#include <limits>
#include <string>

namespace osvs::audit {
namespace {

json quantiles_json(const Quantiles& q) {
  return {{"count", q.count},
          {"p50", number(q.p50)},
          {"p99", number(q.p99)},
          {"p99_9", number(q.p99_9)},
          {"max", number(q.max)}};
}

Quantiles quantiles_from(const json& j) {
  return {j.at("count").get<std::int64_t>(), number_of(j.at("p50")), number_of(j.at("p99")),
          number_of(j.at("p99_9")), number_of(j.at("max"))};
}

/// The histogram's non-empty bins as [bin, count] pairs (its edges: error_stats.h), with its
/// count, sum and max.
json histogram_json(const ErrorStats& s) {
  json bins = json::array();
  for (std::size_t b = 0; b < s.counts().size(); ++b)
    if (s.counts()[b] > 0) bins.push_back({b, s.counts()[b]});
  return {{"count", s.count()}, {"sum", number(s.sum())}, {"max", number(s.max())}, {"bins", bins}};
}

ErrorStats histogram_of(const json& j) {
  std::vector<std::int64_t> counts(ulp_bin_edges().size() + 1, 0);
  for (const json& b : j.at("bins"))
    counts.at(b.at(0).get<std::size_t>()) = b.at(1).get<std::int64_t>();
  return ErrorStats::from_parts(j.at("count").get<std::int64_t>(), number_of(j.at("sum")),
                                number_of(j.at("max")), std::move(counts));
}

json worst_json(const AttentionWorstCase& w) {
  return {{"source", w.source},
          {"case", w.summary},
          {"element", w.element},
          {"got", w.got},
          {"exact", w.exact},
          {"ulps", number(w.ulps)},
          {"allowed_ulps", number(w.allowed_ulps)},
          {"tightness", number(w.tightness)}};
}

AttentionWorstCase worst_of(const json& j) {
  return {j.at("source"),
          j.at("case"),
          j.at("element"),
          j.at("got"),
          j.at("exact"),
          number_of(j.at("ulps")),
          number_of(j.at("allowed_ulps")),
          number_of(j.at("tightness"))};
}

json kernel_json(const AttentionKernelAccuracy& k) {
  json worst = json::array(), laws = json::array();
  for (const auto& w : k.worst) worst.push_back(worst_json(w));
  for (const auto& l : k.laws) laws.push_back(law_outcome_json(l));
  return {{"kernel", k.kernel},
          {"declaration", k.declaration},
          {"passes", k.passes()},
          {"not_run", k.not_run},
          {"error", k.error},
          {"generated_cases", k.generated_cases},
          {"vacuous_cases", k.vacuous_cases},
          {"realistic_cases", k.realistic_cases},
          {"failed_cases", k.failed_cases},
          {"first_failed_case", k.first_failed_case},
          {"o_elements", k.o_elements},
          {"lse_elements", k.lse_elements},
          {"o_ulps", quantiles_json(k.o_ulps)},
          {"lse_ulps", quantiles_json(k.lse_ulps)},
          {"tightness", quantiles_json(k.tightness)},
          {"o_histogram", histogram_json(k.o_histogram)},
          {"over_contract", k.over_contract},
          {"accuracy_excused", k.accuracy_excused},
          {"worst", worst},
          {"laws", laws},
          {"seconds", number(k.seconds)}};
}

AttentionKernelAccuracy kernel_of(const json& j) {
  AttentionKernelAccuracy k;
  k.kernel = j.at("kernel");
  k.declaration = j.at("declaration");
  k.not_run = j.at("not_run");
  k.error = j.at("error");
  k.generated_cases = j.at("generated_cases");
  k.vacuous_cases = j.at("vacuous_cases");
  k.realistic_cases = j.at("realistic_cases");
  k.failed_cases = j.at("failed_cases");
  k.first_failed_case = j.at("first_failed_case");
  k.o_elements = j.at("o_elements");
  k.lse_elements = j.at("lse_elements");
  k.o_ulps = quantiles_from(j.at("o_ulps"));
  k.lse_ulps = quantiles_from(j.at("lse_ulps"));
  k.tightness = quantiles_from(j.at("tightness"));
  k.o_histogram = histogram_of(j.at("o_histogram"));
  k.over_contract = j.at("over_contract");
  k.accuracy_excused = j.at("accuracy_excused");
  for (const json& w : j.at("worst")) k.worst.push_back(worst_of(w));
  for (const json& l : j.at("laws")) k.laws.push_back(law_outcome_of(l));
  k.seconds = number_of(j.at("seconds"));
  return k;
}

}  // namespace

json attention_kernels_json(const AttentionKernelsAudit& a) {
  json kernels = json::array();
  for (const auto& k : a.kernels) kernels.push_back(kernel_json(k));
  return {{"not_run", a.not_run},
          {"passes", a.passes()},
          {"cases", a.cases},
          {"kernels", kernels},
          {"seconds", number(a.seconds)}};
}

AttentionKernelsAudit attention_kernels_of(const json& j) {
  AttentionKernelsAudit a;
  a.not_run = j.at("not_run");
  a.cases = j.at("cases");
  for (const json& k : j.at("kernels")) a.kernels.push_back(kernel_of(k));
  a.seconds = number_of(j.at("seconds"));
  return a;
}

json attention_kernels_summary(const AttentionKernelsAudit& a) {
  json kernels = json::array();
  for (const auto& k : a.kernels) {
    json s = {{"kernel", k.kernel},
              {"verdict", !k.not_run.empty() ? "not run"
                          : k.passes()       ? "pass"
                                             : "fail"}};
    if (!k.not_run.empty()) {
      s["not_run"] = k.not_run;
      kernels.push_back(s);
      continue;
    }
    json laws = json::object();
    for (const auto& l : k.laws)
      laws[l.law] = l.not_run() ? json{{"status", l.status}, {"detail", l.detail}}
                                : json{{"status", l.status},
                                       {"cases", l.cases},
                                       {"vacuous", l.vacuous},
                                       {"shape_classes", l.shape_classes}};
    s.update({{"cases", k.generated_cases + k.realistic_cases},
              {"failed_cases", k.failed_cases},
              {"o_elements", k.o_elements},
              {"lse_elements", k.lse_elements},
              {"o_ulps", quantiles_json(k.o_ulps)},
              {"lse_ulps", quantiles_json(k.lse_ulps)},
              {"tightness", quantiles_json(k.tightness)},
              {"over_contract", k.over_contract},
              {"worst", k.worst.empty() ? json(nullptr) : worst_json(k.worst.front())},
              {"laws", laws}});
    if (!k.error.empty()) s["error"] = k.error;
    kernels.push_back(s);
  }
  return {{"not_run", a.not_run},
          {"passes", a.passes()},
          {"cases_per_law", a.cases},
          {"kernels", kernels}};
}

}  // namespace osvs::audit
