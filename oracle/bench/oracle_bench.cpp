// Throughput of the reference: the fast path (double + certified rounding, MPFR fallback), the
// MPFR-only path, and a plain std::exp loop over doubles as the yardstick, in the same run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "osvs/oracle/reference.h"

namespace {

constexpr std::int64_t kRow = 1024;

std::vector<float> sigma10_row() {
  std::mt19937 rng(3);
  std::normal_distribution<float> dist(0, 10);
  std::vector<float> x(kRow);
  for (float& v : x) v = dist(rng);
  return x;
}

void BM_FastPath(benchmark::State& state) {
  const auto x = sigma10_row();
  for (auto _ : state) benchmark::DoNotOptimize(osvs::oracle::reference_row(x.data(), kRow));
  state.SetItemsProcessed(state.iterations() * kRow);
}

void BM_MpfrPath(benchmark::State& state) {
  const auto x = sigma10_row();
  for (auto _ : state) benchmark::DoNotOptimize(osvs::oracle::reference_row_mpfr(x.data(), kRow));
  state.SetItemsProcessed(state.iterations() * kRow);
}

void BM_StdExpLoop(benchmark::State& state) {
  const auto xf = sigma10_row();
  const std::vector<double> x(xf.begin(), xf.end());
  for (auto _ : state) {
    double s = 0;
    for (double v : x) s += std::exp(v);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * kRow);
}

BENCHMARK(BM_FastPath);
BENCHMARK(BM_MpfrPath);
BENCHMARK(BM_StdExpLoop);

}  // namespace

BENCHMARK_MAIN();
