#include "osvs/audit/config_audit.h"

#include <chrono>
#include <functional>
#include <mutex>
#include <string>

#include "osvs/kernels/exp.h"
#include "parallel.h"

namespace osvs::audit {
namespace {

constexpr std::size_t kKeptViolations = 5;

void merge_row(ConfigResult& r, const RowAudit& a, std::int64_t row) {
  r.y_bound_max = std::max(r.y_bound_max, a.y_bound_max);
  if (r.worst_ulp_row < 0 || a.worst_ulp.ulp > r.worst_ulp.ulp) {
    r.worst_ulp = a.worst_ulp;
    r.worst_ulp_row = row;
  }
  if (r.worst_ratio_row < 0 || a.ratio > r.tightness) {
    r.tightness = a.ratio;
    r.worst_ratio = a.worst_ratio;
    r.worst_ratio_row = row;
  }
  r.d_rel_max = std::max(r.d_rel_max, a.d_rel);
  r.d_bound_max = std::max(r.d_bound_max, a.d_bound);
  if (a.d_bound > 0) r.d_tightness = std::max(r.d_tightness, a.d_rel / a.d_bound);
  r.mpfr_fallbacks += a.mpfr_fallbacks;
  if (!a.ok) {
    ++r.violating_rows;
    if (r.violations.size() < kKeptViolations)
      r.violations.push_back("row " + std::to_string(row) + ": " + a.explanation);
  }
}

}  // namespace

std::uint64_t config_seed(const Config& c, std::uint64_t run_seed) {
  const std::string key = c.kut.label() + "/" + std::to_string(c.block) + "/" +
                          std::to_string(c.n) + "/" + c.family->name;
  // splitmix64 finaliser over the run seed and the configuration's name
  std::uint64_t z = run_seed ^ std::hash<std::string>{}(key);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

ConfigResult audit_config(const Config& config, Executor& executor, std::uint64_t run_seed) {
  const auto start = std::chrono::steady_clock::now();
  ConfigResult r;
  r.config = config;
  const std::int64_t n = config.n;

  SoftmaxBatch batch;
  batch.kernel = config.kut.kernel;
  batch.combine = config.kut.combine;
  batch.block = config.block;
  batch.rows = config.rows;
  batch.cols = n;
  batch.x.resize(static_cast<std::size_t>(config.rows * n));
  std::mt19937_64 rng(config_seed(config, run_seed));
  for (std::int64_t i = 0; i < config.rows; ++i)
    config.family->fill(rng, batch.x.data() + i * n, n);

  const SoftmaxResult out = executor.softmax(batch);
  const double exp_ulp = kexp_max_ulp(executor.is_gpu());

  std::mutex merge_mutex;
  const int workers = worker_count();
  std::vector<ErrorStats> stats(static_cast<std::size_t>(workers));
  const std::int64_t grain = std::max<std::int64_t>(1, 4096 / n);
  parallel_for(config.rows, workers, grain, [&](int w, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const RowAudit a = audit_row(config.kut, config.block, batch.x.data() + i * n, n,
                                   out.y.data() + i * n, out.row_state[static_cast<std::size_t>(i)],
                                   exp_ulp, &stats[static_cast<std::size_t>(w)]);
      std::lock_guard lock(merge_mutex);
      merge_row(r, a, i);
    }
  });
  for (const ErrorStats& s : stats) r.ulp.merge(s);
  r.elements = config.rows * n;

  const auto row_of = [&](std::int64_t i) {
    return std::vector<float>(batch.x.begin() + i * n, batch.x.begin() + (i + 1) * n);
  };
  if (n <= kMaxKeptRow) r.worst_row = row_of(r.worst_ratio_row);
  if (n <= kMaxLawRow) {
    std::vector<std::vector<float>> law_rows = {row_of(0)};
    if (config.rows > 1) law_rows.push_back(row_of(1));
    r.laws = audit_laws(config, law_rows, executor, config_seed(config, run_seed + 1));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace osvs::audit
