#include "osvs/audit/config_audit.h"

#include <chrono>
#include <mutex>
#include <string>

#include "osvs/audit/row_merge.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/stable_hash.h"
#include "osvs/oracle/element_chunks.h"
#include "parallel.h"

namespace osvs::audit {
namespace {

/// Rows are audited in chunks of `grain` consecutive rows; chunk k holds rows [k*grain, ...).
std::size_t chunk_count(std::int64_t rows, std::int64_t grain) {
  return static_cast<std::size_t>((rows + grain - 1) / grain);
}

}  // namespace

std::uint64_t config_seed(const Config& c, std::uint64_t run_seed) {
  const std::string key = c.kut.label() + "/" + std::to_string(c.block) + "/" +
                          std::to_string(c.n) + "/" + c.family->name;
  return splitmix64_mix(run_seed ^ fnv1a64(key));
}

LaunchedConfig launch_config(const Config& config, Executor& executor, std::uint64_t run_seed) {
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t n = config.n;
  LaunchedConfig l;
  SoftmaxBatch& batch = l.batch;
  batch.kernel = config.kut.kernel;
  batch.combine = config.kut.combine;
  batch.block = config.block;
  batch.rows = config.rows;
  batch.cols = n;
  batch.x.resize(static_cast<std::size_t>(config.rows * n));
  std::mt19937_64 rng(config_seed(config, run_seed));
  for (std::int64_t i = 0; i < config.rows; ++i)
    config.family->fill(rng, batch.x.data() + i * n, n);

  l.out = executor.softmax(batch);
  l.gpu = executor.is_gpu();
  if (n <= kMaxLawRow) {  // the laws on the first rows, on this executor
    const auto row_of = [&](std::int64_t i) {
      return std::vector<float>(batch.x.begin() + i * n, batch.x.begin() + (i + 1) * n);
    };
    std::vector<std::vector<float>> law_rows = {row_of(0)};
    if (config.rows > 1) law_rows.push_back(row_of(1));
    l.laws = audit_laws(config, law_rows, executor, config_seed(config, run_seed + 1));
  }
  l.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return l;
}

ConfigResult judge_config(const Config& config, LaunchedConfig launched) {
  const auto start = std::chrono::steady_clock::now();
  ConfigResult r;
  r.config = config;
  const std::int64_t n = config.n;
  const SoftmaxBatch& batch = launched.batch;
  const SoftmaxResult& out = launched.out;
  const double exp_ulp = kexp_max_ulp(launched.gpu);

  // Statistics per chunk of rows, merged in chunk order: the sum behind the mean is then added
  // in the same order whichever thread audited which chunk. merge_row is order-independent.
  // Few long rows (the GPU's rows of up to 2^24 elements, often one per configuration): each row
  // in turn on all cores (audit_row's loops); otherwise rows in parallel, one thread per row. The
  // audit is the same bits either way, so the choice may depend on the machine.
  std::mutex merge_mutex;
  const std::int64_t grain = std::max<std::int64_t>(1, 4096 / n);
  std::vector<ErrorStats> stats(chunk_count(config.rows, grain));
  const int workers = worker_count();
  // Row by row when a row has more element chunks than the configuration has rows (the units of
  // work each way).
  const bool row_by_row =
      workers > 1 && config.rows < workers && oracle::element_chunk_count(n) > config.rows;
  const IndexLoop all_cores = index_loop_on(workers);
  const auto audit_rows = [&](int, std::int64_t begin, std::int64_t end) {
    ErrorStats& chunk = stats[static_cast<std::size_t>(begin / grain)];
    for (std::int64_t i = begin; i < end; ++i) {
      const RowAudit a = audit_row(config.kut, config.block, batch.x.data() + i * n, n,
                                   out.y.data() + i * n, out.row_state[static_cast<std::size_t>(i)],
                                   exp_ulp, &chunk, row_by_row ? &all_cores : nullptr);
      std::lock_guard lock(merge_mutex);
      merge_row(r, a, i);
    }
  };
  if (row_by_row)
    for (std::int64_t begin = 0; begin < config.rows; begin += grain)
      audit_rows(0, begin, std::min(config.rows, begin + grain));
  else
    parallel_for(config.rows, workers, grain, audit_rows);
  for (const ErrorStats& s : stats) r.ulp.merge(s);
  r.elements = config.rows * n;

  if (n <= kMaxKeptRow)
    r.worst_row = std::vector<float>(batch.x.begin() + r.worst_ratio_row * n,
                                     batch.x.begin() + (r.worst_ratio_row + 1) * n);
  r.laws = std::move(launched.laws);
  r.seconds = launched.seconds +
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

ConfigResult audit_config(const Config& config, Executor& executor, std::uint64_t run_seed) {
  return judge_config(config, launch_config(config, executor, run_seed));
}

}  // namespace osvs::audit
