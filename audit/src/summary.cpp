#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "osvs/audit/report.h"

namespace osvs::audit {

std::string describe(const Config& c) {
  return c.kut.label() + " b=" + std::to_string(c.block) + " N=" + std::to_string(c.n) + " " +
         c.family->name;
}

std::vector<KernelSummary> summarize_kernels(const AuditReport& r) {
  std::vector<KernelSummary> out;
  for (const KernelUnderTest& k : r.plan.kernels) {
    KernelSummary s;
    s.kut = k;
    for (const ConfigResult& c : r.configs) {
      if (c.config.kut.label() != k.label()) continue;
      ++s.configs;
      s.elements += c.elements;
      s.ulp.merge(c.ulp);
      s.y_bound_max = std::max(s.y_bound_max, c.y_bound_max);
      s.d_rel_max = std::max(s.d_rel_max, c.d_rel_max);
      s.d_tightness = std::max(s.d_tightness, c.d_tightness);
      if (!s.worst_ulp || c.worst_ulp.ulp > s.worst_ulp->worst_ulp.ulp) s.worst_ulp = &c;
      if (!s.worst_ratio || c.tightness > s.tightness) {
        s.tightness = c.tightness;
        s.worst_ratio = &c;
      }
      s.violating_rows += c.violating_rows;
      for (const LawResult& l : c.laws) {
        s.law_failures += l.fails_release();
        s.known_defects += l.known_defect();
      }
    }
    for (const SearchCase& w : r.search.worst)
      if (w.kut.label() == k.label()) {
        s.search_ratio = std::max(s.search_ratio, w.audit.ratio);
        s.violating_rows += !w.audit.ok;
      }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<LawSummary> summarize_laws(const AuditReport& r) {
  std::map<std::pair<std::string, std::string>, LawSummary> by_key;
  std::vector<std::pair<std::string, std::string>> order;
  for (const ConfigResult& c : r.configs)
    for (const LawResult& l : c.laws) {
      const auto key = std::make_pair(c.config.kut.label(), l.property);
      auto [it, fresh] = by_key.try_emplace(key);
      LawSummary& s = it->second;
      if (fresh) {
        order.push_back(key);
        s.kernel = key.first;
        s.property = key.second;
        s.exact = l.exact;
      }
      ++s.runs;
      if (!l.applies) {
        ++s.not_applicable;
        continue;
      }
      s.holds += l.holds;
      s.errors += l.error;
      s.claimed_failures += !l.error && !l.holds && l.claimed;
      s.unclaimed_failures += l.known_defect();
      if (!l.holds && s.first_failure.empty())
        s.first_failure = describe(c.config) + ": " + l.explanation;
    }
  std::vector<LawSummary> out;
  for (const auto& key : order) out.push_back(by_key[key]);
  return out;
}

const char* verdict(const KernelSummary& k) {
  if (k.configs == 0) return "not run";
  return k.violating_rows > 0 || k.law_failures > 0 ? "fail" : "pass";
}

const char* verdict(const ConfigResult& c) {
  bool law_fails = false;
  for (const LawResult& l : c.laws) law_fails = law_fails || l.fails_release();
  return c.violating_rows > 0 || law_fails ? "fail" : "pass";
}

std::vector<SizeRow> worst_by_size(const AuditReport& r) {
  std::vector<SizeRow> out;
  for (std::int64_t n : r.plan.sizes) {
    SizeRow row{n, std::vector<SizeCell>(r.plan.kernels.size())};
    for (std::size_t k = 0; k < r.plan.kernels.size(); ++k)
      for (const ConfigResult& c : r.configs)
        if (c.config.n == n && c.config.kut.label() == r.plan.kernels[k].label()) {
          SizeCell& cell = row.cells[k];
          cell.max_ulp = cell.ran ? std::max(cell.max_ulp, c.ulp.max()) : c.ulp.max();
          cell.max_bound = cell.ran ? std::max(cell.max_bound, c.y_bound_max) : c.y_bound_max;
          cell.ran = true;
        }
    out.push_back(std::move(row));
  }
  return out;
}

bool release_passes(const AuditReport& r) {
  for (const KernelSummary& k : summarize_kernels(r))
    if (k.violating_rows > 0 || k.law_failures > 0) return false;
  return r.attention.passes() && r.attention_kernels.passes();
}

double elements_per_second(const AuditReport& r) {
  std::int64_t elements = 0;
  for (const ConfigResult& c : r.configs) elements += c.elements;
  return r.sweep_seconds > 0 ? static_cast<double>(elements) / r.sweep_seconds : 0;
}

std::string bound_text(double ulps) {
  return ulps < 1e6 ? fmt::format("{:.1f}", ulps) : fmt::format("{:.2e}", ulps);
}

}  // namespace osvs::audit
