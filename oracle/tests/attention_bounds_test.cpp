// The attention bounds against the CPU model: every output of random split-KV decodes (random
// splits, empty ones included, and random merge trees) lies within its derived bound, and the
// bound is approached (tightness = worst error / bound, per output type, printed and recorded).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>

#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/oracle/attention_bounds.h"
#include "osvs/oracle/attention_reference.h"

namespace osvs::oracle {
namespace {

DecodeProblem random_problem(std::mt19937& rng, DType out, LseBase base) {
  DecodeProblem p;
  p.batch = 1;
  p.heads = 2;
  const int dims[] = {1, 7, 32, 33, 64, 128, 256};
  p.head_dim = dims[rng() % std::size(dims)];
  p.kv_len = 1 + static_cast<std::int64_t>(rng() % 200);
  p.scale = 1.0f / std::sqrt(static_cast<float>(p.head_dim));
  p.base = base;
  p.out = out;
  std::normal_distribution<float> value(0.0f, static_cast<float>(1 + rng() % 4));
  const auto n = static_cast<std::size_t>(p.rows() * p.kv_len * p.head_dim);
  for (std::int64_t i = 0; i < p.rows() * p.head_dim; ++i) p.q.push_back(value(rng));
  for (std::size_t i = 0; i < n; ++i) {
    p.k.push_back(value(rng));
    p.v.push_back(round_to(out, value(rng)));
  }
  for (std::int64_t j = 0; j < p.kv_len; ++j) p.masked.push_back(rng() % 5 == 0);
  return p;
}

SplitPlan random_plan(std::mt19937& rng, std::int64_t kv_len) {
  const int splits = 1 + static_cast<int>(rng() % 9);
  std::vector<std::int64_t> cuts;
  for (int s = 1; s < splits; ++s) cuts.push_back(static_cast<std::int64_t>(rng() % (kv_len + 1)));
  return SplitPlan{offsets_from_cuts(cuts, kv_len), random_tree(splits, uniform_below(rng))};
}

TEST(AttentionBounds, HoldOnTheCpuModelAndAreApproached) {
  std::mt19937 rng(7);
  const auto cpu = make_cpu_attention_executor();
  for (DType out : {DType::F32, DType::BF16, DType::F16}) {
    double worst_o = 0, worst_lse = 0;
    for (int round = 0; round < 12; ++round) {
      const LseBase base = round % 2 ? LseBase::Two : LseBase::E;
      const DecodeProblem p = random_problem(rng, out, base);
      const SplitPlan plan = random_plan(rng, p.kv_len);
      const DecodeResult r = cpu->split_decode(p, plan);
      for (std::int64_t row = 0; row < p.rows(); ++row) {
        ASSERT_TRUE(in_bound_domain(p, row));
        const auto offset = static_cast<std::size_t>(row * p.kv_len * p.head_dim);
        const AttentionReference ref = attention_reference(
            AttentionQuery{p.q.data() + row * p.head_dim, p.k.data() + offset, p.v.data() + offset,
                           p.masked.data(), p.kv_len, p.head_dim, p.scale, base, out});
        const AttnBound bound = decode_bound(p, plan, row, false);
        const float lse = r.out.lse[static_cast<std::size_t>(row)];
        if (ref.outcome == AttnOutcome::Empty) {
          EXPECT_EQ(lse, -INFINITY);
          continue;
        }
        const double lse_err = std::fabs(lse - ref.lse);
        EXPECT_LE(lse_err, lse_tolerance(bound, ref.lse));
        worst_lse = std::max(worst_lse, lse_err / lse_tolerance(bound, ref.lse));
        for (int c = 0; c < p.head_dim; ++c) {
          const float o = r.out.o[static_cast<std::size_t>(row * p.head_dim + c)];
          const double tol = o_tolerance(bound, ref.magnitude[static_cast<std::size_t>(c)]);
          const double err = std::fabs(o - ref.o[static_cast<std::size_t>(c)]);
          EXPECT_LE(err, tol) << "row " << row << " component " << c;
          worst_o = std::max(worst_o, err / tol);
        }
      }
    }
    std::cout << "[ osvs     ] " << to_string(out) << ": tightness o " << worst_o << ", lse "
              << worst_lse << "\n";
    RecordProperty(std::string("tightness_o_") + to_string(out), std::to_string(worst_o));
    // The output type's rounding dominates bf16 and f16 outputs: half an ulp of a value near M_c
    // is a sizeable part of the bound there; in f32 the exp's worst case is rarely met.
    EXPECT_GT(worst_o, out == DType::F32 ? 1e-3 : 0.1) << "a bound far above every error";
  }
}

}  // namespace
}  // namespace osvs::oracle
