#include "osvs/audit/search.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "mutations.h"
#include "osvs/kernels/exp.h"
#include "parallel.h"

namespace osvs::audit {
namespace {

/// Mutants tried per seed per round: one executor batch.
constexpr std::int64_t kMutantsPerRound = 16;

/// Runs the mutants of one seed as a batch and returns each one's audit.
std::vector<RowAudit> audit_mutants(const SearchCase& s,
                                    const std::vector<std::vector<float>>& rows,
                                    Executor& executor) {
  const auto n = static_cast<std::int64_t>(s.row.size());
  SoftmaxBatch b;
  b.kernel = s.kut.kernel;
  b.combine = s.kut.combine;
  b.block = s.block;
  b.rows = std::ssize(rows);
  b.cols = n;
  for (const auto& r : rows) b.x.insert(b.x.end(), r.begin(), r.end());
  const SoftmaxResult out = executor.softmax(b);
  const double exp_ulp = kexp_max_ulp(executor.is_gpu());
  std::vector<RowAudit> audits(rows.size());
  parallel_for(b.rows, worker_count(), 1, [&](int, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      audits[static_cast<std::size_t>(i)] =
          audit_row(s.kut, s.block, b.x.data() + i * n, n, out.y.data() + i * n,
                    out.row_state[static_cast<std::size_t>(i)], exp_ulp, nullptr);
  });
  return audits;
}

}  // namespace

std::vector<SearchCase> best_per_kernel(std::vector<SearchCase> all, int keep) {
  std::stable_sort(all.begin(), all.end(), [](const SearchCase& a, const SearchCase& b) {
    return a.audit.ratio > b.audit.ratio;
  });
  std::map<std::string, int> taken;
  std::vector<SearchCase> out;
  for (SearchCase& c : all)
    if (taken[c.kut.label()]++ < keep) out.push_back(std::move(c));
  return out;
}

SearchResult targeted_search(std::vector<SearchCase> seeds, Executor& executor,
                             const SearchBudget& budget, std::uint64_t seed, int keep) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  SearchResult result;
  std::mt19937_64 rng(seed);
  const auto more = [&](std::int64_t round) {
    return budget.seconds ? elapsed() < *budget.seconds : round < budget.rounds;
  };
  for (std::int64_t round = 0; !seeds.empty() && more(round); ++round) {
    ++result.rounds;
    SearchCase& s = seeds[static_cast<std::size_t>(round) % seeds.size()];
    std::vector<std::vector<float>> mutants(kMutantsPerRound, s.row);
    for (auto& m : mutants) mutate_row(m, s.audit.worst_ratio.index, rng);
    const std::vector<RowAudit> audits = audit_mutants(s, mutants, executor);
    result.rows_evaluated += kMutantsPerRound;
    result.elements_evaluated += kMutantsPerRound * std::ssize(s.row);
    const auto best =  // the first of equal ratios
        std::max_element(audits.begin(), audits.end(),
                         [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
    if (best->ratio > s.audit.ratio) {
      s.row = mutants[static_cast<std::size_t>(best - audits.begin())];
      s.audit = *best;
      ++s.generation;
      ++result.improvements;
    }
  }
  for (SearchCase& s : seeds)
    if (s.generation > 0) s.origin += ", " + std::to_string(s.generation) + " accepted mutations";
  result.worst = best_per_kernel(std::move(seeds), keep);
  result.seconds = elapsed();
  return result;
}

}  // namespace osvs::audit
