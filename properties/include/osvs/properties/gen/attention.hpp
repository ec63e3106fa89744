// Implementation of gen/attention.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "osvs/kernels/merge_trees.h"

namespace osvs::gen {

inline rc::Gen<int> attn_head_dim() {
  return rc::gen::weightedOneOf<int>(
      {{3, rc::gen::element(1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256)},
       {1, rc::gen::inRange(1, kAttnMaxHeadDim + 1)}});
}

inline rc::Gen<float> attn_value(DType t, int min_exp, int max_exp) {
  return rc::gen::weightedOneOf<float>(
      {{1, rc::gen::element(0.0f, -0.0f)},
       {12, rc::gen::map(rc::gen::pair(rc::gen::inRange(-1024, 1025),
                                       rc::gen::inRange(min_exp, max_exp + 1)),
                         [t](const std::pair<int, int>& me) {
                           return round_to(
                               t, std::ldexp(static_cast<float>(me.first), me.second - 10));
                         })}});
}

inline rc::Gen<float> attn_lse() {
  return rc::gen::weightedOneOf<float>(
      {{2, rc::gen::just(-INFINITY)},
       {2, rc::gen::map(rc::gen::inRange(-3, 4), [](int i) { return static_cast<float>(i); })},
       {5, rc::gen::map(rc::gen::inRange(-102400, 102401),
                        [](int i) { return std::ldexp(static_cast<float>(i), -10); })},
       {1, rc::gen::map(rc::gen::pair(rc::gen::inRange(-1024, 1025), rc::gen::inRange(10, 40)),
                        [](const std::pair<int, int>& me) {
                          return std::ldexp(static_cast<float>(me.first), me.second - 10);
                        })}});
}

inline rc::Gen<MergeCase> merge_case(rc::Gen<int> head_dim) {
  return rc::gen::exec([head_dim] {
    const int rows = *rc::gen::inRange(1, 5);
    const int dim = *head_dim;
    const DType t = *rc::gen::element(DType::F32, DType::BF16, DType::F16);
    const int parts = *rc::gen::inRange(3, 7);
    MergeCase c;
    c.base = *rc::gen::element(LseBase::E, LseBase::Two);
    for (int i = 0; i < parts; ++i) {
      AttnStates s;
      s.rows = rows;
      s.head_dim = dim;
      s.o_type = t;
      s.lse = *rc::gen::container<std::vector<float>>(static_cast<std::size_t>(rows), attn_lse());
      const int max_exp = t == DType::F16 ? 8 : 16;
      s.o = *rc::gen::container<std::vector<float>>(static_cast<std::size_t>(rows * dim),
                                                    attn_value(t, -8, max_exp));
      c.parts.push_back(std::move(s));
    }
    const auto choices = rc::gen::container<std::vector<std::int64_t>>(
        static_cast<std::size_t>(2 * parts), rc::gen::inRange<std::int64_t>(0, 720));
    c.tree_choices = *choices;
    c.other_choices = *choices;
    std::vector<std::int64_t> divisors;
    for (std::int64_t h = 1; h <= rows; ++h)
      if (rows % h == 0) divisors.push_back(h);
    c.shape.heads = *rc::gen::elementOf(divisors);
    c.shape.head_pad = *rc::gen::element<std::int64_t>(0, 0, 1, 7);
    c.shape.token_pad = *rc::gen::element<std::int64_t>(0, 0, 3);
    return c;
  });
}

namespace detail {

/// A plan of kv_len keys: usually 1 .. min(kv_len + 1, 12) splits, sometimes up to one split per
/// key and an empty one (at most 65), at random cuts (repeated cuts make empty splits), merged by
/// a random tree.
inline SplitPlan attn_plan(std::int64_t kv_len) {
  const int most = *rc::gen::weightedOneOf<int>(
      {{3, rc::gen::just(static_cast<int>(std::min<std::int64_t>(kv_len + 1, 12)))},
       {1, rc::gen::just(static_cast<int>(std::min<std::int64_t>(kv_len + 1, 65)))}});
  const int splits = *rc::gen::inRange(1, most + 1);
  const auto cuts = *rc::gen::container<std::vector<std::int64_t>>(
      static_cast<std::size_t>(splits - 1), rc::gen::inRange<std::int64_t>(0, kv_len + 1));
  const auto choices = *rc::gen::container<std::vector<std::int64_t>>(
      static_cast<std::size_t>(2 * splits), rc::gen::inRange<std::int64_t>(0, 720));
  std::size_t next = 0;
  return SplitPlan{offsets_from_cuts(cuts, kv_len), random_tree(splits, [&](std::int64_t k) {
                     return next < choices.size() ? choices[next++] % k : 0;
                   })};
}

}  // namespace detail

inline rc::Gen<DecodeCase> decode_case() {
  return rc::gen::exec([] {
    DecodeCase c;
    DecodeProblem& p = c.problem;
    p.batch = *rc::gen::inRange(1, 3);
    p.heads = *rc::gen::inRange(1, 3);
    p.head_dim = *attn_head_dim();
    // Long sequences only with narrow heads: the oracle's cost grows with kv_len x head_dim.
    const int longest = p.head_dim <= 32 ? 1000 : (p.head_dim <= 128 ? 200 : 64);
    p.kv_len = *rc::gen::weightedOneOf<std::int64_t>(
        {{2, rc::gen::inRange<std::int64_t>(0, 9)},
         {3, rc::gen::inRange<std::int64_t>(0, 65)},
         {2, rc::gen::inRange<std::int64_t>(0, longest + 1)}});
    p.out = *rc::gen::element(DType::F32, DType::BF16, DType::F16);
    p.base = *rc::gen::element(LseBase::E, LseBase::Two);
    p.scale = *rc::gen::element(1.0f / std::sqrt(static_cast<float>(p.head_dim)), 1.0f, 0.125f);
    const int qk_exp = *rc::gen::inRange(-3, 3);  // q, k up to about 2^qk_exp
    const auto rows = static_cast<std::size_t>(p.rows());
    const auto dim = static_cast<std::size_t>(p.head_dim);
    const auto keys = rows * static_cast<std::size_t>(p.kv_len);
    p.q = *rc::gen::container<std::vector<float>>(rows * dim, attn_value(DType::F32, -8, qk_exp));
    p.k = *rc::gen::container<std::vector<float>>(keys * dim, attn_value(DType::F32, -8, qk_exp));
    p.v = *rc::gen::container<std::vector<float>>(keys * dim, attn_value(p.out, -8, 8));
    const int tie_every = *rc::gen::element(0, 0, 2, 3);  // key j copies key j - 1: equal scores
    if (tie_every > 0)
      for (std::size_t key = 1; key < keys; ++key)
        if (key % static_cast<std::size_t>(p.kv_len) % static_cast<std::size_t>(tie_every) == 1)
          std::copy_n(p.k.begin() + static_cast<std::ptrdiff_t>((key - 1) * dim), dim,
                      p.k.begin() + static_cast<std::ptrdiff_t>(key * dim));
    const auto mask_size = static_cast<std::size_t>(p.batch) * static_cast<std::size_t>(p.kv_len);
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        break;  // no mask
      case 1:
        p.masked = *rc::gen::container<std::vector<std::uint8_t>>(
            mask_size, rc::gen::weightedOneOf<std::uint8_t>({{3, rc::gen::just(std::uint8_t{0})},
                                                             {1, rc::gen::just(std::uint8_t{1})}}));
        break;
      case 2:  // batch 0 fully masked
        p.masked.assign(mask_size, 0);
        std::fill_n(p.masked.begin(), p.kv_len, std::uint8_t{1});
        break;
      default: {  // a masked prefix
        p.masked.assign(mask_size, 0);
        const auto prefix = *rc::gen::inRange<std::int64_t>(0, p.kv_len + 1);
        for (int b = 0; b < p.batch; ++b)
          std::fill_n(p.masked.begin() + static_cast<std::ptrdiff_t>(b * p.kv_len), prefix,
                      std::uint8_t{1});
      }
    }
    c.plan = detail::attn_plan(p.kv_len);
    c.other_plan = detail::attn_plan(p.kv_len);
    const auto choices = *rc::gen::container<std::vector<std::int64_t>>(
        static_cast<std::size_t>(p.kv_len), rc::gen::inRange<std::int64_t>(0, 1 << 20));
    std::size_t next = 0;
    c.key_permutation = random_permutation(
        p.kv_len, [&](std::int64_t k) { return next < choices.size() ? choices[next++] % k : 0; });
    return c;
  });
}

}  // namespace osvs::gen
