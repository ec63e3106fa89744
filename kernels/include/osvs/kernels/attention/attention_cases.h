// Plain data of the attention kernels: partial states in the engines' (lse, o) form, the
// split-KV decode problem and its split plan. Every value is bit-exact float data (an o of type
// bf16 / f16 is held as the float it equals), so a case can come from a generator, a file or a
// test.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/cases.h"
#include "osvs/kernels/dtype.h"

namespace osvs {

/// Largest head dimension of the attention kernels: 8 components per lane of one warp.
inline constexpr int kAttnMaxHeadDim = 256;
/// Lanes of the decode kernel's warp; one warp handles one (query, split).
inline constexpr int kAttnWarp = 32;
inline constexpr int kAttnMaxPerLane = kAttnMaxHeadDim / kAttnWarp;

/// `rows` partial results (one per batch x head), each lse (fp32) and head_dim components of o.
struct AttnStates {
  std::int64_t rows = 0;
  int head_dim = 1;
  DType o_type = DType::F32;
  std::vector<float> lse;  ///< rows
  std::vector<float> o;    ///< rows x head_dim, each exactly a value of o_type
};

/// One split-KV decode: one query per (batch, head), the KV sequence of length kv_len.
struct DecodeProblem {
  int batch = 1;
  int heads = 1;
  int head_dim = 1;
  std::int64_t kv_len = 0;
  std::vector<float> q;              ///< batch x heads x head_dim
  std::vector<float> k;              ///< batch x heads x kv_len x head_dim
  std::vector<float> v;              ///< batch x heads x kv_len x head_dim
  std::vector<std::uint8_t> masked;  ///< batch x kv_len (nonzero: masked), or empty: none masked
  float scale = 1.0f;                ///< scores are (q . k) * scale
  LseBase base = LseBase::E;         ///< base of every lse, partial and final
  DType out = DType::F32;            ///< type of o, partial and final

  std::int64_t rows() const { return std::int64_t{batch} * heads; }
  bool is_masked(int b, std::int64_t j) const {
    return !masked.empty() && masked[static_cast<std::size_t>(b * kv_len + j)] != 0;
  }
};

/// How the KV sequence is cut and the partials merged: split s holds keys [offsets[s],
/// offsets[s+1]) (empty splits allowed); `merges` (merge_trees.h) merge the splits' partials into
/// slot 0, each `dst = merge(dst, src)` by the merge-states kernel.
struct SplitPlan {
  std::vector<std::int64_t> offsets{0, 0};
  std::vector<Merge> merges;

  int splits() const { return static_cast<int>(offsets.size()) - 1; }
};

/// The partial of every split and the merged result.
struct DecodeResult {
  std::vector<AttnStates> partials;  ///< one per split
  AttnStates out;
};

/// Throws InvalidLaunch (validate.h) unless the shapes, types and plan are consistent.
void validate(const AttnStates& a, const AttnStates& b);
void validate(const DecodeProblem& p, const SplitPlan& plan);

/// The score multiplier of a problem in its base: scale, or fl(scale * log2 e) for base 2 (the
/// pre-scaling base-2 kernels do once; its rounding is in the bound).
inline float score_multiplier(float scale, LseBase base) {
  return base == LseBase::E ? scale : scale * kLog2eF;
}

}  // namespace osvs
