#include "osvs/audit/shard.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include "osvs/audit/report.h"

namespace osvs::audit {
namespace {

/// A whole decimal number of `text` (no sign, no spaces), or nullopt.
std::optional<int> whole_number(std::string_view text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || v < 0)
    return std::nullopt;
  return v;
}

std::string name(const Shard& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

/// What must be equal in every shard of one audit, or the first difference.
std::string difference(const AuditReport& a, const AuditReport& b) {
  const AuditOptions &x = a.options, &y = b.options;
  if (x.executor != y.executor || x.quick != y.quick || x.kernels != y.kernels ||
      x.combines != y.combines || x.blocks != y.blocks || x.cols != y.cols ||
      x.families != y.families || x.budget.seconds != y.budget.seconds ||
      x.budget.elements != y.budget.elements || x.search_rounds != y.search_rounds ||
      x.search_seconds != y.search_seconds || x.seed != y.seed || x.perf != y.perf ||
      x.attention != y.attention || x.attention_cases != y.attention_cases)
    return "their options differ (the plan, the seed or the sections)";
  if (a.provenance.osvs_commit != b.provenance.osvs_commit)
    return "commit " + a.provenance.osvs_commit + " vs " + b.provenance.osvs_commit;
  if (a.provenance.executor != b.provenance.executor || a.provenance.device != b.provenance.device)
    return "executor '" + a.provenance.device + "' vs '" + b.provenance.device + "'";
  if (a.exp_ulp != b.exp_ulp) return "the bounds assume different exp accuracies";
  if (a.shard.count != b.shard.count) return "shard " + name(a.shard) + " vs " + name(b.shard);
  return "";
}

/// The attention kernels' section of the whole run from the shards' (sorted by index): kernel k
/// of the registry is shard k % n's next, so a round over the shards restores the registry's
/// order; the shards that audit one kernel fewer come last and run out first.
AttentionKernelsAudit merge_attention_kernels(std::vector<AuditReport>& shards) {
  AttentionKernelsAudit merged;
  merged.not_run = shards.front().attention_kernels.not_run;
  merged.cases = shards.front().attention_kernels.cases;
  std::vector<std::size_t> next(shards.size(), 0);
  for (std::size_t s = 0; s < shards.size(); s = (s + 1) % shards.size()) {
    auto& kernels = shards[s].attention_kernels.kernels;
    if (next[s] == kernels.size()) break;
    merged.kernels.push_back(std::move(kernels[next[s]++]));
  }
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const AttentionKernelsAudit& part = shards[s].attention_kernels;
    if (next[s] != part.kernels.size())
      throw std::invalid_argument("shard " + name(shards[s].shard) + " audits " +
                                  std::to_string(part.kernels.size()) +
                                  " attention kernels, more than its part of the registry");
    merged.seconds = std::max(merged.seconds, part.seconds);
  }
  return merged;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const auto i = whole_number(std::string_view(text).substr(0, slash));
  const auto n = slash == std::string::npos
                     ? std::nullopt
                     : whole_number(std::string_view(text).substr(slash + 1));
  if (!i || !n || *n < 1 || *i >= *n)
    throw std::invalid_argument("shard '" + text + "' is not i/n with 0 <= i < n (e.g. 0/4)");
  return {*i, *n};
}

std::optional<Shard> shard_from_environment() {
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  if (!total && !index) return std::nullopt;
  if (!total || !index)
    throw std::invalid_argument(
        "GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX must be set together (only one is)");
  try {
    return parse_shard(std::string(index) + "/" + total);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(std::string("GTEST_SHARD_INDEX=") + index +
                                ", GTEST_TOTAL_SHARDS=" + total + " is not a shard i of n");
  }
}

AuditReport merge_shards(std::vector<AuditReport> shards) {
  if (shards.empty()) throw std::invalid_argument("no shard to merge");
  std::sort(shards.begin(), shards.end(), [](const AuditReport& a, const AuditReport& b) {
    return a.shard.index < b.shard.index;
  });
  const int n = shards.front().shard.count;
  for (const AuditReport& shard : shards)
    if (const std::string d = difference(shards.front(), shard); !d.empty())
      throw std::invalid_argument("shards " + name(shards.front().shard) + " and " +
                                  name(shard.shard) + " are not of one audit: " + d);
  for (int i = 0; i < n; ++i) {
    const auto given = std::count_if(shards.begin(), shards.end(),
                                     [i](const AuditReport& a) { return a.shard.index == i; });
    if (given != 1)
      throw std::invalid_argument(
          "shard " + name({i, n}) + (given ? " is given twice" : " is missing") +
          ": a merge needs each of the " + std::to_string(n) + " shards once");
  }
  const AuditReport& first = shards.front();
  AuditReport r;
  static_cast<AuditRun&>(r) = first;  // the run the shards are parts of
  r.launchers = 0;
  r.merged_shards = n;
  // Every planned configuration from its shard, in plan order: audited, or left out by the
  // shard's time budget; nothing else is possible.
  std::vector<std::size_t> next_config(shards.size(), 0), next_not_run(shards.size(), 0);
  for (std::size_t k = 0; k < r.plan.configs.size(); ++k) {
    const auto s = k % static_cast<std::size_t>(n);
    AuditReport& shard = shards[s];
    const std::string want = describe(r.plan.configs[k]);
    if (next_config[s] < shard.configs.size() &&
        describe(shard.configs[next_config[s]].config) == want)
      r.configs.push_back(std::move(shard.configs[next_config[s]++]));
    else if (next_not_run[s] < shard.not_run.size() &&
             describe(shard.not_run[next_not_run[s]]) == want)
      r.not_run.push_back(shard.not_run[next_not_run[s]++]);
    else
      throw std::invalid_argument("shard " + name(shard.shard) + " has no result for '" + want +
                                  "' (configuration " + std::to_string(k) + " of the plan)");
  }
  std::vector<SearchCase> searched;
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const AuditReport& shard = shards[s];
    if (next_config[s] != shard.configs.size() || next_not_run[s] != shard.not_run.size())
      throw std::invalid_argument("shard " + name(shard.shard) +
                                  " holds configurations outside its part of the plan");
    r.launchers += shard.launchers;
    r.devices += shard.devices;
    r.sweep_seconds = std::max(r.sweep_seconds, shard.sweep_seconds);
    r.total_seconds = std::max(r.total_seconds, shard.total_seconds);
    searched.insert(searched.end(), shard.search.worst.begin(), shard.search.worst.end());
    r.search.rows_evaluated += shard.search.rows_evaluated;
    r.search.elements_evaluated += shard.search.elements_evaluated;
    r.search.improvements += shard.search.improvements;
    r.search.rounds += shard.search.rounds;
    r.search.seconds += shard.search.seconds;
    r.regression_files.insert(r.regression_files.end(), shard.regression_files.begin(),
                              shard.regression_files.end());
  }
  r.search.worst = best_per_kernel(std::move(searched), kSearchKeep);
  r.perf = first.perf;  // shard 0 runs the performance audit and the attention section
  r.attention = first.attention;
  r.attention_kernels = merge_attention_kernels(shards);
  return r;
}

}  // namespace osvs::audit
