// osvs's own attention kernel: flash-attention's tiled online softmax in f32, one (query, head)
// at a time, keys in tiles of Policy::tile, K/V read through the block table when paged. The row
// is written once for both executors (tiled_attention_row.h); this file holds its host executor,
// its contract and its declaration, and tiled_attention_device.cuh its device executor. It is an
// entry of the attention kind like any user's kernel on each (builtin_attention.cpp,
// builtin_tiled_attention_device.cu), and the original of the attention mutants (a Policy with
// one defect each, api/tests/attention_mutant_policies.h): the defects are policy members, not
// parameters of this code's callers.
//
// Split-KV (flash-decoding with FlashInfer's fixed split size): a launch's p.kv_splits > 0 cuts
// each row's keys into splits of that many keys from key 0 (declared: 4, 8 or 16, multiples of
// the tile, so that a split's tiles are the unsplit kernel's); each split runs the loop below
// from its first key, and the partials merge left to right, m = max(m_a, m_b),
// l = l_a e^(m_a - m) + l_b e^(m_b - m), acc likewise (an empty split merges away exactly). Its
// own choice (p.kv_splits = 0) is one split: the kernel as it was. A fixed size keeps a key's
// split whatever the batch and the KV length: the bits follow the size only.
//
// Per (sequence s, query i, query head h), kv head g = h / (heads_q / heads_kv):
//   diagonal D = i + (k_len - q_len) (bottom-right) or i (top-left); key j kept unless
//     causal and j > D, or a window and j > D + right or j < D - left (docs/semantics.md §9);
//   for each tile of keys: s_j = fl(fl(q . k_j) scale) (the dot a chain of fmas from +0), with a
//     softcap c then fl(c tanhf(fl(s_j / c))), with an ALiBi slope a_h then
//     fl(s_j - fl(a_h |D - j|)) (|D - j| exact in float below 2^24),
//     m' = max(m, max_j s_j), alpha = exp(m - m'), l = l alpha + sum_j exp(s_j - m'),
//     acc_c = acc_c alpha + sum_j exp(s_j - m') v_jc (fmas), m = m';
//   with a sink z: m' = max(m, z), l = l e^(m - m') + e^(z - m'), acc_c = acc_c e^(m - m');
//   o_c = acc_c / l rounded to the output type, lse = m + log(l) (base 2: times log2(e)); a row
//   that keeps no key gives o = +0 and lse = -inf (with a sink: o = +0, lse = z).
//
// Its contract (builtin_host.cpp declares it), to first order in u = 2^-24 (glibc's expf and
// logf within 1 ulp): each score is within (d + 1) u S of its exact value (d fmas and the
// scale), so each weight exp(s_j - m) within 2 (d + 1) u S relatively, the numerator and l
// together within 4 (d + 1) u S; each tile's rescale, each exp, each add and the division add
// at most 4 u relatively per key and tile, 4 n u + 4 u in all; the final rounding to the output
// type 0.5 ulp_T. In AttentionAccuracy's terms: o_ulps 5 (4 + 0.5 rounded up), o_ulps_per_key 4,
// o_per_score 4; the lse: m within (d + 1) u S, log(l) within (2 n + 4) u absolutely, the sum and
// the base change 2 ulp: lse_ulps 6, lse_ulps_per_key 2, lse_per_score 2. A softcap adds the
// division's, tanhf's (2 ulp) and the product's roundings, within 4 u c of the score: S >= c
// covers it (the laws take S = max(S, c)); a sink is one more term of l and one more rescale.
// An ALiBi bias b_j = a_h |D - j| is rounded once (u |b_j|) and subtracted once (u |s_j - b_j|):
// within 2 u (|s_j| + |b_j|), which the laws' S covers by taking the bias's size in
// (S = max_j scale sum_c |q_c k_jc| + |b_j|).
// Splits: a merge of two partials is a tile's rescale (an exp, a product and an add a side, one
// side's factor exactly 1), and splits of 4 keys or more start at tile boundaries: a merge for
// at most every tile, which the 4 u a key and tile counts.
// Underflow (missed by the first-order figures, found by the registry fuzzer: o = -1.3e-40 off by
// 27.9 ulp of M against 21.2): a weight exp(s_j - m) below 2^-126 is within 2^-149 absolutely,
// not relatively, so its error times |v_jc|, plus the fma's and the rescale's roundings of a
// subnormal acc (2^-150 each), is up to 2^-149 (|v_jc| + 1) a key; l >= 1 (the maximum's term),
// so o gains at most n (V_c + 1) 2^-149: o_underflow 1.
#pragma once

#include <cstdint>
#include <string>

#include "launch_order.h"
#include "osvs/osvs.h"
#include "tiled_attention_row.h"

namespace osvs::builtin {

/// Whether a launch merges its partials right to left: never, or (the mutant) every other
/// launch, as float atomics land in an order of their own.
template <class P>
bool merges_right_to_left() {
  return every_other_launch<P, P::partials_in_varying_order>();
}

/// The host executor: every (sequence, query, head) row in turn (tiled_attention_row.h).
template <class P, class Math = LibraryMath>
void tiled_attention(const AttentionProblem& p) {
  check_tiled_problem<P>(p);
  const bool right_to_left = merges_right_to_left<P>();
  for (int s = 0; s < p.batch; ++s)
    for (std::int64_t i = 0; i < p.cu_seqlens_q[s + 1] - p.cu_seqlens_q[s]; ++i)
      for (int h = 0; h < p.heads_q; ++h) tiled_attention_row<P, Math>(p, s, i, h, right_to_left);
}

/// The contract of the kernel on an executor (LibraryMath's functions; the figures above are the
/// host's). On the device CUDA's expf is within 2 ulp where glibc's is within 1
/// (tiled_attention_math.h; logf 1 ulp and tanhf 2 ulp on both), so each exp's relative error
/// doubles, from 2 u to 4 u; the rest of the derivation above is unchanged:
///   o: an exp a key (its weight) and one a tile or merge (the rescale, at most one a key): 2 u
///     more per key, o_ulps_per_key 4 + 2 = 6; the sink's exp and the weights' common error
///     (a relative error e of every weight moves the normalised o by at most 2 e M) 4 u more in
///     the constant, o_ulps 5 + 2 = 7;
///   lse: l gains 2 u a key (its weights) and 2 u a tile or merge (the rescales, which the
///     host's (2 n + 4) u counted once each): (4 n + 6) u absolutely on log(l), in ulps of
///     max(|lse|, 1) (>= 2 u) 2 n + 3, plus logf's and the base change's: lse_ulps 6 + 2 = 8,
///     lse_ulps_per_key 2 + 1 = 3;
///   underflow: a weight below 2^-126 within 2 2^-149 (2 ulp of the subnormal ulp), so
///     (2 |v_jc| + 1) 2^-149 <= 2 (V_c + 1) 2^-149 a key: o_underflow 2.
/// The per-score terms (the dot products and the scale, rounded alike on both) are the host's.
inline AttentionAccuracy tiled_attention_accuracy(Where where) {
  if (where == Where::Device) return {7, 6, 4, 8, 3, 2, 2};
  return {5, 4, 4, 6, 2, 2, 1};
}

/// The declaration of a tiled kernel named `name` running on `where` (the builtin, its device
/// twin and every mutant share it; only the contract follows the executor).
inline AttentionKernel declare_tiled_attention(const std::string& name,
                                               void (*run)(const AttentionProblem&),
                                               Where where = Where::Host) {
  return AttentionKernel(name, where)
      .run(run)
      .in_types({DType::F32, DType::BF16, DType::F16})
      .masks({MaskKind::None, MaskKind::Causal, MaskKind::Window})
      .gqa()
      .page_sizes({1, 3, 4})
      .v_head_dims({1, 2, 3, 4, 5, 8, 16})
      .lse({LseBase::E, LseBase::Two}, AttnLseLayout::HeadsTokens)
      .softcap()
      .sinks()
      .alibi()
      .tile_sizes({TiledAttention::tile})
      .kv_splits(KvSplit::Size, {4, 8, 16})
      .split_bitwise(false)
      .cascade_merge(where == Where::Device ? "osvs.merge_states" : "osvs.merge_states.cpu_model")
      .accuracy(tiled_attention_accuracy(where))
      .description(where == Where::Device
                       ? "osvs's tiled online-softmax attention on the device, one thread a row "
                         "(f32 arithmetic, CUDA's expf)"
                       : "osvs's tiled online-softmax attention on the host (f32 arithmetic)");
}

}  // namespace osvs::builtin
