// The exact attention's cost (osvs/api/attention_laws.h: exact_attention, the oracle every
// attention law judges by): one realistic forward, 4 sequences of 2048 queries and keys, 8 query
// heads over 2 kv heads, head_dim 128, causal, bf16 (the shape issue 30 names), on every core of
// the machine; and, on one core in the same run, a sample of its queries by the fast path and by
// the MPFR path alone, for their ratio. Counters: queries, the share MPFR decided, keys judged.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "osvs/api/attention_laws.h"
#include "osvs/kernels/parallel_for.h"
#include "osvs/oracle/attention_reference.h"

namespace {

using osvs::AttentionCase;
using osvs::DType;

constexpr int kSeqs = 4, kLen = 2048, kHeadsQ = 8, kHeadsKv = 2, kDim = 128;

const AttentionCase& realistic_forward() {
  static const AttentionCase c = [] {
    AttentionCase c;
    c.seqs.assign(kSeqs, osvs::AttentionSequence{kLen, kLen});
    c.heads_q = kHeadsQ;
    c.heads_kv = kHeadsKv;
    c.head_dim_qk = c.head_dim_v = kDim;
    c.in_type = DType::BF16;
    c.scale = 1.0f / std::sqrt(static_cast<float>(kDim));
    c.mask.kind = osvs::MaskKind::Causal;
    std::mt19937 rng(20261203);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const auto fill = [&](std::vector<float>& x, std::size_t n) {
      x.resize(n);
      for (float& v : x) v = osvs::round_to(DType::BF16, normal(rng));
    };
    const auto tokens = static_cast<std::size_t>(kSeqs) * kLen;
    fill(c.q, tokens * kHeadsQ * kDim);
    fill(c.k, tokens * kHeadsKv * kDim);
    fill(c.v, tokens * kHeadsKv * kDim);
    return c;
  }();
  return c;
}

void BM_ExactAttentionRealisticForward(benchmark::State& state) {
  const AttentionCase& c = realistic_forward();
  std::int64_t mpfr = 0, queries = 0;
  double keys = 0;
  for (auto _ : state) {
    const osvs::AttentionExact e = osvs::exact_attention(c, DType::BF16);
    mpfr = e.mpfr_queries;
    queries = static_cast<std::int64_t>(e.kept.size());
    keys = 0;
    for (std::int64_t k : e.kept) keys += static_cast<double>(k);
    benchmark::DoNotOptimize(e.o_rounded.data());
  }
  state.counters["cores"] = osvs::worker_count();
  state.counters["queries"] = static_cast<double>(queries);
  state.counters["mpfr_queries"] = static_cast<double>(mpfr);
  state.counters["mpfr_share"] = static_cast<double>(mpfr) / static_cast<double>(queries);
  state.counters["kept_keys"] = keys;
}

/// 32 queries of the realistic forward (the last tokens of sequence 0: 2017-2048 kept keys
/// each), as attention_reference sees them.
struct Sample {
  std::vector<float> k, v;
  std::vector<std::uint8_t> masked;
  std::vector<osvs::oracle::AttentionQuery> queries;
};

const Sample& sample() {
  static const Sample s = [] {
    const AttentionCase& c = realistic_forward();
    Sample s;
    s.k.resize(static_cast<std::size_t>(kLen) * kDim);
    s.v.resize(static_cast<std::size_t>(kLen) * kDim);
    for (std::size_t j = 0; j < static_cast<std::size_t>(kLen); ++j)
      for (std::size_t d = 0; d < static_cast<std::size_t>(kDim); ++d) {
        s.k[j * kDim + d] = c.k[(j * kHeadsKv) * kDim + d];  // kv head 0
        s.v[j * kDim + d] = c.v[(j * kHeadsKv) * kDim + d];
      }
    s.masked.assign(static_cast<std::size_t>(kLen), 0);
    for (int t = kLen - 32; t < kLen; ++t) {
      osvs::oracle::AttentionQuery a;
      a.q = c.q.data() + static_cast<std::size_t>(t) * kHeadsQ * kDim;  // query head 0
      a.k = s.k.data();
      a.v = s.v.data();
      a.masked = s.masked.data();
      a.kv_len = t + 1;  // causal: keys 0..t
      a.head_dim = kDim;
      a.scale = c.scale;
      a.out = DType::BF16;
      s.queries.push_back(a);
    }
    return s;
  }();
  return s;
}

void BM_SampleFastPath(benchmark::State& state) {
  std::int64_t mpfr = 0;
  for (auto _ : state)
    for (const auto& a : sample().queries) mpfr += osvs::oracle::attention_reference(a).mpfr;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sample().queries.size()));
  state.counters["mpfr_queries"] = static_cast<double>(mpfr);
}

void BM_SampleMpfrPath(benchmark::State& state) {
  for (auto _ : state)
    for (const auto& a : sample().queries)
      benchmark::DoNotOptimize(osvs::oracle::attention_reference_mpfr(a).lse);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sample().queries.size()));
}

BENCHMARK(BM_ExactAttentionRealisticForward)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_SampleFastPath)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SampleMpfrPath)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
