// Attention cases whose sinks lie across the whole range osvs's tiled kernels accept (every
// finite float; attention_case_problem refuses the others): a sink far above the scores, where
// the forward rescales its keys by e^(m - z) and the rounding of m - z, u |m - z|, moves every
// weight against the sink's (tiled_attention.h derives the charge: S at least z), up to where
// e^(m - z) leaves f32's normals (m - z < -87.3) and past it; far below them, where e^(z - m)
// underflows; and at the magnitudes a model's learned sinks and the generators' reach (±64,
// ±1000) and beyond (up to ±2^127). Scores stay small (values k/16, a scale in [1/4, 1/2)), so
// that S alone (without the sink) is a few units: the sink's own size is what a contract must
// carry. The host
// tests (attention_sinks_test.cpp) and the device's (tiled_attention_device_test.cpp) run the
// same cases.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "osvs/api/attention_case.h"
#include "osvs/api/kind.h"
#include "osvs/osvs.h"

namespace osvs::test {

/// The sample the host and device tests share: its size and seed.
inline constexpr int kLargeSinkCases = 300;
inline constexpr std::uint64_t kLargeSinkSeed = 20261206;

/// A sink drawn by `rng`: one of the fixed magnitudes (64, 1000, and 87 and 88, either side of
/// where e^(m - z) leaves the normals), a full-mantissa value in (-100, 100) (where m - z rounds
/// by up to 2^-18), or a full-mantissa magnitude 2^e, e in [0, 127); either sign.
inline float drawn_sink(std::mt19937_64& rng) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const float sign = pick(0, 1) ? 1.0f : -1.0f;
  const float fixed[] = {64.0f, 1000.0f, 87.0f, 88.0f};
  switch (pick(0, 2)) {
    case 0:
      return sign * fixed[pick(0, 3)];
    case 1:
      return static_cast<float>(std::uniform_real_distribution<double>(-100, 100)(rng));
    default:
      return sign *
             std::ldexp(static_cast<float>(std::uniform_real_distribution<double>(1, 2)(rng)),
                        pick(0, 126));
  }
}

/// `count` cases from `seed`: one sequence of 1 to 3 queries and 0 to 6 keys (a row without keys
/// is o = 0, lse = z), 1 or 2 query heads over one kv head, head_dim 1, 2 or 4, no mask, f32,
/// bf16 or f16, lse in base e or 2, values k/16 (|k| <= 32, exact in every type), a scale of 24
/// bits in [1/4, 1/2), a sink a head (drawn_sink). With `dout`, a dout like v (for a backward
/// kernel).
inline std::vector<AttentionCase> large_sink_cases(int count, std::uint64_t seed, bool dout) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const DType types[] = {DType::F32, DType::BF16, DType::F16};
  const int dims[] = {1, 2, 4};
  std::vector<AttentionCase> out;
  for (int n = 0; n < count; ++n) {
    AttentionCase c;
    c.in_type = types[pick(0, 2)];
    c.seqs = {{pick(1, 3), pick(0, 6)}};
    c.heads_kv = 1;
    c.heads_q = pick(1, 2);
    c.head_dim_qk = c.head_dim_v = dims[pick(0, 2)];
    // a scale of 24 bits: the scores then have bits below the sink's ulp, so m - z rounds
    c.scale = static_cast<float>(std::uniform_real_distribution<double>(0.25, 0.5)(rng));
    c.base = pick(0, 1) ? LseBase::E : LseBase::Two;
    const auto fill = [&](std::vector<float>& x, std::int64_t size) {
      x.resize(static_cast<std::size_t>(size));
      for (float& v : x) v = static_cast<float>(pick(-32, 32)) / 16.0f;
    };
    fill(c.q, c.total_q() * c.heads_q * c.head_dim_qk);
    fill(c.k, c.total_k() * c.heads_kv * c.head_dim_qk);
    fill(c.v, c.total_k() * c.heads_kv * c.head_dim_v);
    if (dout) fill(c.dout, c.total_q() * c.heads_q * c.head_dim_v);
    for (int h = 0; h < c.heads_q; ++h) c.sinks.push_back(drawn_sink(rng));
    out.push_back(std::move(c));
  }
  return out;
}

/// Every case of `cases`, fitted to k, within k's contract (the accuracy law).
inline void expect_accurate_on_every_case(const AttentionKernel& k,
                                          const std::vector<AttentionCase>& cases) {
  const AttentionLaw& accuracy = *AttentionKind::find_law("accuracy");
  for (const AttentionCase& c : cases) {
    ASSERT_EQ(attention_case_problem(c), "");
    const Verdict v = AttentionKind::check(accuracy, k, fit_to(k, c));
    EXPECT_TRUE(v.holds()) << AttentionKind::summary(c) << ": " << v.explanation;
  }
}

}  // namespace osvs::test
