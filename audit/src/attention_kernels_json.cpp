#include "attention_kernels_json.h"
#include "json_parts.h"

#include <cmath>
#include <limits>
#include <string>

namespace osvs::audit {

// The records' fields and the histogram's own form, where json_parts.h's record_json and record_of
// find them: in osvs::audit itself (argument-dependent lookup does not look into an unnamed
// namespace), each local to this file.

static void json_fields(RecordOf<Quantiles> auto& q, auto& io) {
  io("count", q.count);
  io("p50", q.p50);
  io("p99", q.p99);
  io("p99_9", q.p99_9);
  io("max", q.max);
}

/// The histogram's non-empty bins as [bin, count] pairs (its edges: error_stats.h), with its
/// count, sum and max.
static json json_value(const ErrorStats& s) {
  json bins = json::array();
  for (std::size_t b = 0; b < s.counts().size(); ++b)
    if (s.counts()[b] > 0) bins.push_back({b, s.counts()[b]});
  return {{"count", s.count()}, {"sum", number(s.sum())}, {"max", number(s.max())}, {"bins", bins}};
}

static void read_value(const json& j, ErrorStats& s) {
  std::vector<std::int64_t> counts(ulp_bin_edges().size() + 1, 0);
  for (const json& b : j.at("bins"))
    counts.at(b.at(0).get<std::size_t>()) = b.at(1).get<std::int64_t>();
  s = ErrorStats::from_parts(j.at("count").get<std::int64_t>(), number_of(j.at("sum")),
                             number_of(j.at("max")), std::move(counts));
}

static json json_value(const AttentionWorstCase& w) {
  return {{"source", w.source},
          {"case", w.summary},
          {"element", w.element},
          {"got", w.got},
          {"exact", w.exact},
          {"ulps", number(w.ulps)},
          {"allowed_ulps", number(w.allowed_ulps)},
          {"tightness", number(w.tightness)}};
}

static void read_value(const json& j, AttentionWorstCase& w) {
  w = {j.at("source"),
       j.at("case"),
       j.at("element"),
       j.at("got"),
       j.at("exact"),
       number_of(j.at("ulps")),
       number_of(j.at("allowed_ulps")),
       number_of(j.at("tightness"))};
}

static void json_fields(RecordOf<AttentionKernelAccuracy> auto& k, auto& io) {
  io("kernel", k.kernel);
  io("declaration", k.declaration);
  io.derived("passes", [&] { return k.passes(); });
  io("not_run", k.not_run);
  io("error", k.error);
  io("generated_cases", k.generated_cases);
  io("vacuous_cases", k.vacuous_cases);
  io("realistic_cases", k.realistic_cases);
  io("failed_cases", k.failed_cases);
  io("first_failed_case", k.first_failed_case);
  io("o_elements", k.o_elements);
  io("lse_elements", k.lse_elements);
  io("o_ulps", k.o_ulps);
  io("lse_ulps", k.lse_ulps);
  io("tightness", k.tightness);
  io("o_histogram", k.o_histogram);
  io("over_contract", k.over_contract);
  io("accuracy_excused", k.accuracy_excused);
  io("worst", k.worst);
  io("laws", k.laws);
  io("seconds", k.seconds);
}

static void json_fields(RecordOf<AttentionKernelsAudit> auto& a, auto& io) {
  io("not_run", a.not_run);
  io.derived("passes", [&] { return a.passes(); });
  io("cases", a.cases);
  io("kernels", a.kernels);
  io("seconds", a.seconds);
}

json attention_kernels_json(const AttentionKernelsAudit& a) {
  return record_json(a);
}

AttentionKernelsAudit attention_kernels_of(const json& j) {
  return record_of<AttentionKernelsAudit>(j);
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
              {"o_ulps", json_value(k.o_ulps)},
              {"lse_ulps", json_value(k.lse_ulps)},
              {"tightness", json_value(k.tightness)},
              {"over_contract", k.over_contract},
              {"worst", k.worst.empty() ? json(nullptr) : json_value(k.worst.front())},
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
