// The exact attention gradients' cost on a realistic shape: 4 sequences of 2048 queries and 2048
// keys, 8 query heads over 2 kv heads (a group: 4 heads x 2048 rows = 8192 rows, 2048 keys),
// head_dim 128, causal, q, k, v and dout N(0, 1) rounded to bf16, scale 1/sqrt(128). Prints the
// seconds of each group and in all on std::thread::hardware_concurrency() threads, and the share
// of groups the MPFR path decided. Usage: osvs_attention_backward_bench [groups (default 8)]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "osvs/kernels/dtype.h"
#include "osvs/oracle/attention_backward_reference.h"

namespace {

constexpr int kSequences = 4, kKvHeads = 2, kHeadsPerKv = 4, kLen = 2048, kDim = 128;

std::vector<float> bf16_normals(std::size_t n, std::mt19937_64& rng) {
  std::normal_distribution<float> normal;
  std::vector<float> x(n);
  for (float& y : x) y = osvs::round_to(osvs::DType::BF16, normal(rng));
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  const int groups = argc > 1 ? std::atoi(argv[1]) : kSequences * kKvHeads;
  const int workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  constexpr std::int64_t kRows = std::int64_t{kHeadsPerKv} * kLen;
  // Row (h, i) keeps keys 0..i (causal; bottom-right = top-left for a square group).
  std::vector<std::uint8_t> masked(static_cast<std::size_t>(kRows * kLen));
  for (std::int64_t r = 0; r < kRows; ++r)
    for (std::int64_t j = 0; j < kLen; ++j)
      masked[static_cast<std::size_t>(r * kLen + j)] = j > r % kLen ? 1 : 0;
  std::mt19937_64 rng(2024);
  double total = 0, worst = 0;
  int by_mpfr = 0;
  for (int group = 0; group < groups; ++group) {
    const std::vector<float> q = bf16_normals(kRows * kDim, rng);
    const std::vector<float> dout = bf16_normals(kRows * kDim, rng);
    const std::vector<float> k = bf16_normals(std::size_t{kLen} * kDim, rng);
    const std::vector<float> v = bf16_normals(std::size_t{kLen} * kDim, rng);
    osvs::oracle::AttentionBackwardGroup g;
    g.rows = kRows;
    g.kv_len = kLen;
    g.head_dim = g.v_dim = kDim;
    g.q = q.data();
    g.dout = dout.data();
    g.k = k.data();
    g.v = v.data();
    g.masked = masked.data();
    g.scale = static_cast<float>(1 / std::sqrt(double{kDim}));
    const auto start = std::chrono::steady_clock::now();
    const osvs::oracle::AttentionBackwardReference r =
        osvs::oracle::attention_backward_reference(g, workers);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += seconds;
    by_mpfr += r.mpfr ? 1 : 0;
    worst = std::max(worst, r.error);
    std::printf("group %d: %.3f s  error 2^%.2f  %s\n", group, seconds, std::log2(r.error),
                r.mpfr ? "MPFR" : "fast");
  }
  std::printf(
      "workers %d  groups %d  total %.3f s  per group %.3f s  MPFR share %d/%d  "
      "largest error 2^%.2f\n",
      workers, groups, total, total / groups, by_mpfr, groups, std::log2(worst));
  return 0;
}
