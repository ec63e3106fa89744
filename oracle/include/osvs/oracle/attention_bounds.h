// Derived error bounds of the attention kernels (kernels/include/osvs/kernels/attention/): the
// split-KV decode of one split, one merge of two partials, and any merge tree over them. The
// derivation is written beside the code (src/attention_bounds.cpp) and summarised in
// docs/semantics.md §8. A bound says, for a computed partial or result (lse^, o^) against the
// exact one (oracle/attention_reference.h),
//
//   |o^_c - o_c| <= o_rel M_c + o_abs       M_c = sum_j p_j |v_jc|
//   |lse^ - lse| <= lse_abs                 in the lse's base units
//
// and `empty` says the exact result is the empty one, which the kernels produce exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/attention/attention_cases.h"

namespace osvs::oracle {

struct AttnBound {
  double o_rel = 0;
  double o_abs = 0;
  double lse_abs = 0;
  bool empty = true;
};

/// What every bound of one problem shares.
struct AttnBoundContext {
  int head_dim = 1;
  LseBase base = LseBase::E;
  DType out = DType::F32;
  bool gpu = false;          ///< which exp / log accuracy applies (lse_math.h)
  double lse_magnitude = 0;  ///< Lambda: bounds |lse| of every partial and |score| of every key
  double v_max = 0;          ///< the largest |v_jc| (or |o_ic| of a merge's inputs)
};

/// One split's unmasked keys: their count and max_j beta |scale| sum_c |q_c k_jc| (beta = 1 for
/// base e, log2 e for base 2), the scale of the dot products' rounding errors.
struct SplitKeys {
  std::int64_t unmasked = 0;
  double max_dot_magnitude = 0;
};

AttnBound split_bound(const SplitKeys& keys, const AttnBoundContext& ctx);
AttnBound merge_bound(const AttnBound& a, const AttnBound& b, const AttnBoundContext& ctx);

/// The bound of the root (slot 0) after `merges` (merge_trees.h) over `leaves`.
AttnBound tree_bound(std::vector<AttnBound> leaves, const std::vector<Merge>& merges,
                     const AttnBoundContext& ctx);

/// The unmasked keys of query row `row` of p in [begin, end).
SplitKeys split_keys(const DecodeProblem& p, std::int64_t row, std::int64_t begin,
                     std::int64_t end);

/// The context of query row `row` of p (Lambda and v_max from its unmasked keys).
AttnBoundContext decode_context(const DecodeProblem& p, std::int64_t row, bool gpu);

/// The split-KV decode of query row `row` of p along `plan`.
AttnBound decode_bound(const DecodeProblem& p, const SplitPlan& plan, std::int64_t row, bool gpu);

/// The bounds hold where nothing overflows: every q, k, v of the row's unmasked keys finite,
/// |scores| and n max|v| far from float's range, max|v| at most half the output type's largest
/// value. Outside it the accuracy laws are vacuous (the special-value laws judge it).
bool in_bound_domain(const DecodeProblem& p, std::int64_t row);

/// The error allowed for a component with magnitude M_c, including the reference's own error.
double o_tolerance(const AttnBound& b, double magnitude);
/// The error allowed for an lse with exact value `lse`, including the reference's own error.
double lse_tolerance(const AttnBound& b, double lse);

}  // namespace osvs::oracle
