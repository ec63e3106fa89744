// osvs's tiled attention kernel on fp8 K/V (docs/semantics.md §9, "fp8 K/V"): the kernel of
// tiled_attention.h, whose row (tiled_attention_row.h) reads each K/V element through load_kv:
// the stored e4m3 or e5m2 value decoded exactly and multiplied by its tensor's scale in binary32,
// k'_jc = fl(k_scale k_jc), v'_jc = fl(v_scale v_jc); q and o in the in type, every other step
// the unquantised kernel's. Its entry takes fp8 K/V only (builtin_attention.cpp), so that the
// attention laws judge it on every generated case.
//
// The dequantisation. An fp8 value has at most 4 (e4m3) or 3 (e5m2) significant bits and lies in
// [2^-16, 57344] or is 0; a case's scales are floats in [2^-64, 2^64] (attention_case.h), so
// scale x lies within binary32's normals (or is 0) and fl(scale x) = scale x (1 + e), |e| <= u =
// 2^-24, with e = 0 when the scale has at most 20 (e4m3) or 21 (e5m2) significant bits (the
// product then has at most 24). Of the generated scales (kKvScales) only 1/448 rounded (24
// bits) makes e nonzero: the contract below is derived for any scale.
//
// Its contract, to first order in u, from the unquantised kernel's (tiled_attention.h: o_ulps 5,
// o_ulps_per_key 4, o_per_score 4, lse_ulps 6, lse_ulps_per_key 2, lse_per_score 2, o_underflow
// 1 on the host; 7, 6, 4, 8, 3, 2, 2 on the device), with S and M_c those of the true keys and
// values (scale k, scale v):
//   scores: q . k'_j = sum_c q_c k_jc (1 + e_c) is within u sum_c |q_c k_jc| of q . k_j, one u S
//     more than the d fmas' and the scale's (d + 1) u S: (d + 2) u S <= 1.5 (d + 1) u S for
//     d >= 1, so every per-score figure times 1.5: o_per_score 4 -> 6, lse_per_score 2 -> 3;
//   values: sum_j p_j v'_jc = sum_j p_j v_jc (1 + e_jc) is within u M_c of o_c, and u M_c <
//     ulp_f32(M_c) <= ulp_T(M_c) (M_c < 2^(b + 1) in binade b, u M_c < 2^(b - 23)): one ulp
//     more, o_ulps 5 -> 6 (4 + 0.5 + 1 = 5.5, rounded up) on the host, 7 -> 8 on the device;
//   the per-key, lse and underflow figures are unchanged (a dequantised value is normal or 0:
//     no absolute error of its own; the lse reads no value).
#pragma once

#include <string>

#include "tiled_attention.h"

namespace osvs::builtin {

/// The fp8 kernel's contract from the unquantised kernel's `a` on the same executor, as derived
/// above: the values' dequantisation one ulp more on o, the keys' every per-score figure times
/// 1.5; the rest unchanged.
constexpr AttentionAccuracy with_dequantised_kv(AttentionAccuracy a) {
  a.o_ulps += 1;
  a.o_per_score *= 1.5;
  a.lse_per_score *= 1.5;
  return a;
}

/// The contract of the fp8 kernel on each executor (host 6, 4, 6, 6, 2, 3, 1; device 8, 6, 6, 8,
/// 3, 3, 2).
inline constexpr ExecutorContracts<AttentionAccuracy> kTiledAttentionFp8Accuracy{
    .host = with_dequantised_kv(kTiledAttentionAccuracy.host),
    .device = with_dequantised_kv(kTiledAttentionAccuracy.device)};

/// The declaration of the fp8 kernel named `name` (its entry and its mutants'): the tiled
/// kernel's declaration, taking e4m3 and e5m2 K/V only, with the contract above.
inline AttentionKernel declare_tiled_attention_fp8(const std::string& name,
                                                   void (*run)(const AttentionProblem&),
                                                   Where where = Where::Host) {
  return declare_tiled_attention(name, run, where)
      .kv_types({DType::E4M3, DType::E5M2}, true)
      .accuracy(kTiledAttentionFp8Accuracy.on(where))
      .description(std::string("osvs's tiled online-softmax attention on ") +
                   (where == Where::Device ? "the device" : "the host") +
                   " with fp8 K/V (e4m3, e5m2), dequantised in f32 (scale x, rounded once)");
}

}  // namespace osvs::builtin
