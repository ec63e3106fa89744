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
// covers it (the laws take S = max(S, c)); a sink is one more term of l and one more rescale,
// whose charge follows (Sinks).
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
//
// The constants, itemised (first order; k u M_c <= k ulp_f32(M_c) <= k ulp_T(M_c), as u M <
// ulp_f32(M)). With T tiles (and merges at tile boundaries) a row's keys take T - 1 rescales
// whose exp is not exp(0) or exp(-inf); each key's weight carries its exp (2 u) and those
// rescales' (2 u each), the same factor in acc and l, and a common-to-both weight error e_j moves
// o by |sum_j e_j p_j (v_jc - o_c)| <= max |e_j| (M_c + |o_c|) <= 2 max |e_j| M_c: 4 u T. l's adds
// (the first is exact) and products n - 1 + T - 1, acc's fmas and products n + T - 1 (u each of
// their partial sums, which the final ones bound), the division 1: (2 n + 6 T - 2) u, with T = 1
// for n <= 4 ((2 n + 4) u; n = 1: the one key is the maximum, w = exp(0) = 1, 2 u at most) and
// T <= (n + 3) / 4 beyond ((3.5 n + 2.5) u); plus 0.5 ulp_T for the output. Within 5 + 4 n with
// at least 4.5 u to spare for n >= 2 (6.5 u at n = 1): what the sink's step takes below.
//
// Sinks (any finite z: attention_case_problem refuses the others). After the keys, m is the
// largest computed score and l >= 1 (the maximum's weight is exp(0) = 1, and every later rescale
// of it exp(0) too). The exact row, written about the computed m (exactly: any reference point
// gives the same quotient), is o = sum_j e^(s_j - m) v_j / (sum_j e^(s_j - m) + e^(z - m)).
//   z <= m: m' = m, alpha = exp(0) = 1 exactly, and the sink's term t = exp(fl(z - m)) errs by
//     its exp (2 u t) and its argument's rounding (u |z - m| t <= u / e: |x| e^x <= 1/e for x <=
//     0, whatever z), against l + t >= 1: o moves by at most (2 P_sink + 1/e) u |o_c| <= 2.37 u
//     M_c, and the add by u: 3.37 u, within the 4.5 u to spare. Below 2^-126 t errs by 2^-149,
//     2^-149 relatively to l + t: nothing. (The row without keys: o = 0 and lse = z exactly.)
//   z > m: m' = z, alpha = exp(fl(m - z)), l' = fl(fl(l alpha) + 1), acc' = fl(acc alpha). alpha
//     multiplies every key's weight and not the sink's 1, so its relative error a moves o by a
//     P_sink |o_c| (o = alpha A / (alpha L + 1): d o / o = P_sink d alpha / alpha). a is the
//     exp's 2 u and the rounding of m - z, u |m - z|: with the product l alpha's u (1 - P_sink),
//     acc alpha's u and the add's u, the constants are 2 u P_sink + u (1 - P_sink) + 2 u <= 4 u,
//     within the 4.5 u to spare; u |m - z| grows with z: up to 2^-18 (64 u, 32 to 64 ulp of f32)
//     where m - z is in [-87.3, -64] (alpha still normal), past any fixed count of ulps. It is a
//     score-sized error: 0 < z - m <= max(z, 0) + |m| <= 2 S' with S' = max(S, z), the S the laws
//     take with a sink (attention_score_magnitudes; a negative z above the scores adds nothing to
//     S, as z - m <= -m <= S there). Against the per-score charge: each key's weight
//     errs (apart from the common and constant parts above) by its score's (d + 1) u S and its
//     arguments' roundings u (m - s_j) (its own exp's and the later rescales', telescoping) <=
//     2 u S: e_j <= (d + 3) u S'. The sink's a moves only the keys' total against the sink, so
//     |sum_j e_j p_j (v_jc - o_c) - a P_sink o_c| <= max e_j M_c + |o_c| ((1 - P_sink) max e_j +
//     P_sink a) <= (d + 3) u S' M_c + max((d + 3) u S', 2 u S') M_c = (2 d + 6) u S' M_c, within
//     o_per_score 4: 4 (d + 1) u S' M_c for d >= 1. With alpha below 2^-126 (m - z < -87.3) its
//     relative part is the same, and its absolute 2^-149 (1 ulp of a subnormal) times |acc_c| <= l
//     V_c <= n V_c, plus the roundings of acc alpha and of the quotient below the normals (2^-150
//     each), is n V_c 2^-149 + 2^-149 <= n (V_c + 1) 2^-149, o_underflow 1 (the keys' own
//     underflow, scaled by alpha < 2^-126, is nothing beside it).
//   The lse: z <= m adds t's 2.37 u and the add's u to log(l), within the lse's 2 ulp (4 u) of
//     constants beyond m's and the base change's; z > m moves log(l') by (e_j + a)(1 - P_sink):
//     the score part (d + 3) u S' as without a sink, and u |m - z| (1 - P_sink) <= u |m - z| l
//     e^(m - z) <= n u / e (|x| e^x <= 1/e again: bounded), within the per-key 2 ulp (l's weights
//     and rescales take 1); m' = z exactly, and z + log(l') rounded once, u |lse|.
// So the contract holds for every finite z once S is at least z; without that the forward's o
// errs past it where the sink dominates small scores (api.tiled_attention_sinks' cases: 4.8 times
// the allowance of S without the sink, 43.8 ulp against 9, at z = 64, n = 1, f32). The device's
// exp (4 u) doubles the exps' constants: 6 u in the z > m case, 5.37 u below, against the
// device's spare of 6.5 + 6 n less its keys' (2 n + 10 T - 2) u: at least 6.5 u for n >= 2
// (11.5 u at n = 1); its alpha below the normals errs by 2 2^-149, o_underflow 2; the lse's
// constants likewise within its 8 + 3 n.
#pragma once

#include <cstdint>
#include <string>

#include "launch_order.h"
#include "osvs/osvs.h"
#include "tiled_attention_declaration.h"
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
inline constexpr ExecutorContracts<AttentionAccuracy> kTiledAttentionAccuracy{
    .host = {5, 4, 4, 6, 2, 2, 1}, .device = {7, 6, 4, 8, 3, 2, 2}};

/// The declaration of a tiled kernel named `name` running on `where` (the builtin, its device
/// twin and every mutant share it; only the contract follows the executor).
inline AttentionKernel declare_tiled_attention(const std::string& name,
                                               void (*run)(const AttentionProblem&),
                                               Where where = Where::Host) {
  return tiled_attention_family(name, run, where)
      .page_sizes({1, 3, 4})
      .v_head_dims({1, 2, 3, 4, 5, 8, 16})
      .tile_sizes({TiledAttention::tile})
      .kv_splits(KvSplit::Size, {4, 8, 16})
      .split_bitwise(false)
      .cascade_merge(where == Where::Device ? "osvs.merge_states" : "osvs.merge_states.cpu_model")
      .accuracy(kTiledAttentionAccuracy.on(where))
      .description(where == Where::Device
                       ? "osvs's tiled online-softmax attention on the device, one thread a row "
                         "(f32 arithmetic, CUDA's expf)"
                       : "osvs's tiled online-softmax attention on the host (f32 arithmetic)");
}

}  // namespace osvs::builtin
