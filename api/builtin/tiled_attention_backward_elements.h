// osvs's attention backward kernel element by element: the loops tiled_attention_backward.h
// describes and bounds, written once for both executors (OSVS_HD), every output element one
// function's, summed in a fixed order: a query row's dq and delta (tiled_attention_backward_row),
// a key's dk and dv over the rows of its kv head's group (tiled_attention_backward_key), a head's
// dsinks over its rows in the batch (tiled_attention_backward_sink). The host entry runs them
// element after element (tiled_attention_backward.h), the device entry one thread an element
// (tiled_attention_backward_device.cuh): no element is written by two threads, so the bits follow
// the problem only, on either executor (no atomics). A (row, key) pair's terms are recomputed by
// each element that reads them, by the same code on the same bits. Every operation is one IEEE
// binary32 operation rounded once (rounded_ops.h: nvcc may not fuse or reorder them; the host
// builds with -ffp-contract=off), so the two executors differ only in the elementary functions
// of Math (tiled_attention_math.h). The policy P is the kernel as written (TiledAttentionBackward)
// or a mutant's one defect (api/tests/attention_backward_mutant_policies.h).
#pragma once

#include <cstdint>

#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/rounded_ops.h"
#include "osvs/osvs.h"
#include "tiled_attention_math.h"
#include "tiled_attention_row.h"  // load_elem, store_elem

namespace osvs::builtin {

/// The kernel as written; each mutant overrides one member.
struct TiledAttentionBackward {
  static constexpr bool delta_from_bf16_o = false;      ///< delta from o rounded to bf16 (f32 o)
  static constexpr bool dq_scaled = true;               ///< dq = scale sum_j dS_j k_j
  static constexpr bool gqa_heads_summed = true;        ///< dk, dv add every head of the group
  static constexpr bool mask_in_backward = true;        ///< masked keys skipped here too
  static constexpr bool rows_in_varying_order = false;  ///< rows reversed every other launch
  static constexpr bool softcap_derivative = true;      ///< dS times sech^2(score / softcap)
  static constexpr bool lse_base_two_read = true;       ///< a base-2 lse read as base 2
  static constexpr bool delta_subtracted = true;        ///< dS = P (dP - delta)
  static constexpr bool dsinks_negated = true;          ///< dsinks = - sum P_sink delta
  static constexpr bool dsinks_over_batch = true;       ///< dsinks sum every sequence's rows
};

/// log2(e) rounded to binary32 (the forward's base change).
inline constexpr float kLog2E = 1.44269504f;
/// The largest head_dim (of q/k and of v) an element holds (the entries declare at most 16).
inline constexpr int kMaxBackwardHeadDim = 16;

/// Sequence s of a launch: its first query and key tokens and its lengths.
struct BackwardSequence {
  std::int64_t q0 = 0, lq = 0, k0 = 0, lk = 0;
};

OSVS_HD BackwardSequence backward_sequence(const AttentionProblem& p, int s) {
  BackwardSequence q;
  q.q0 = p.cu_seqlens_q[s];
  q.lq = p.cu_seqlens_q[s + 1] - q.q0;
  q.k0 = p.cu_seqlens_k[s];
  q.lk = p.cu_seqlens_k[s + 1] - q.k0;
  return q;
}

/// The sequence that holds token t of the prefix sums cu (batch + 1 entries, t below the last),
/// walking them (the batches the laws draw hold a few sequences); empty sequences are passed
/// over. The device executor's thread of a token row finds its sequence so.
OSVS_HD int backward_sequence_of(const std::int32_t* cu, std::int64_t t) {
  int s = 0;
  while (cu[s + 1] <= t) ++s;
  return s;
}

/// Whether query i of sequence q keeps its key j: docs/semantics.md §9's mask, written again
/// here as kernels under test write it (the mutant keeps every key).
template <class P>
OSVS_HD bool backward_kept(const AttentionProblem& p, const BackwardSequence& q, std::int64_t i,
                           std::int64_t j) {
  if (!P::mask_in_backward || p.mask.kind == MaskKind::None) return true;
  const std::int64_t diagonal = i + (p.mask.align == MaskAlign::BottomRight ? q.lk - q.lq : 0);
  if (p.mask.kind == MaskKind::Causal) return j <= diagonal;
  if (p.mask.window_right >= 0 && j > diagonal + p.mask.window_right) return false;
  return p.mask.window_left < 0 || j >= diagonal - p.mask.window_left;
}

/// The keys query i of sequence q keeps.
template <class P>
OSVS_HD std::int64_t backward_keys_kept(const AttentionProblem& p, const BackwardSequence& q,
                                        std::int64_t i) {
  std::int64_t keys = 0;
  for (std::int64_t j = 0; j < q.lk; ++j) keys += backward_kept<P>(p, q, i, j) ? 1 : 0;
  return keys;
}

/// What the elements read of one query row (query i of a sequence, head h): its q and dout, and
/// delta = sum_c dout_c o_c, a chain of fmas from +0 over the GIVEN o (the forward's output,
/// rounded to the out type).
struct BackwardQuery {
  float q[kMaxBackwardHeadDim];
  float dout[kMaxBackwardHeadDim];
  float delta = 0;
};

template <class P>
OSVS_HD void load_backward_query(const AttentionProblem& p, std::int64_t token, int h,
                                 BackwardQuery& r) {
  const std::int64_t qv = (token * p.heads_q + h) * p.head_dim_qk,
                     ov = (token * p.heads_q + h) * p.head_dim_v;
  for (int c = 0; c < p.head_dim_qk; ++c) r.q[c] = detail::load_elem(p.in_type, p.q_ptr, qv + c);
  r.delta = 0;
  for (int c = 0; c < p.head_dim_v; ++c) {
    r.dout[c] = detail::load_elem(p.in_type, p.dout_ptr, ov + c);
    float o = detail::load_elem(p.out_type, p.o_ptr, ov + c);
    if (P::delta_from_bf16_o && p.out_type == DType::F32) o = float_of_bf16_bits(bf16_bits_of(o));
    r.delta = osvs::detail::fma_f(r.dout[c], o, r.delta);
  }
}

/// P = e^(x - lse) (a base-2 lse: 2^(x log2(e) - lse)): a key's weight (x its score) or the
/// sink's (x the sink), from the given lse.
template <class P, class Math>
OSVS_HD float backward_weight(const AttentionProblem& p, float x, float lse) {
  using osvs::detail::mul_rn;
  using osvs::detail::sub_rn;
  return p.base == LseBase::Two && P::lse_base_two_read ? Math::exp2(sub_rn(mul_rn(x, kLog2E), lse))
                                                        : Math::exp(sub_rn(x, lse));
}

/// A kept (row, key) pair's weight P and dS = P (dP - delta) (times sech^2 with a softcap).
struct BackwardPair {
  float prob = 0, ds = 0;
};

/// Query i (its row r, head h, lse `lse`) of sequence q and its key j of kv head g: the score as
/// the forward rounds it (tiled_attention_row.h), fl(fl(q . k_j) scale), with a softcap c
/// fl(c tanh(x)), x = fl(score / c), and sech^2(x) from one exp: 4 e / (1 + e)^2, e = e^(-2 |x|)
/// (1 - tanh^2 would cancel where tanh nears 1), with ALiBi less fl(a_h |distance|); P from the
/// lse; dP = dout . v_j (fmas from +0).
template <class P, class Math>
OSVS_HD BackwardPair backward_pair(const AttentionProblem& p, const BackwardSequence& q,
                                   std::int64_t i, int h, int g, std::int64_t j,
                                   const BackwardQuery& r, float lse) {
  using osvs::detail::add_rn;
  using osvs::detail::div_rn;
  using osvs::detail::fma_f;
  using osvs::detail::mul_rn;
  using osvs::detail::sub_rn;
  const std::int64_t kv = (q.k0 + j) * p.heads_kv + g;
  float dot = 0;
  for (int c = 0; c < p.head_dim_qk; ++c)
    dot = fma_f(r.q[c], detail::load_elem(p.in_type, p.k_ptr, kv * p.head_dim_qk + c), dot);
  float w = mul_rn(dot, p.scale), t = 1;
  if (p.softcap > 0) {
    const float x = div_rn(w, p.softcap);
    w = mul_rn(p.softcap, Math::tanh(x));
    if (P::softcap_derivative) {
      const float e = Math::exp(-mul_rn(2.0f, abs_f(x)));
      const float one_e = add_rn(1.0f, e);
      t = div_rn(mul_rn(4.0f, e), mul_rn(one_e, one_e));
    }
  }
  if (p.alibi_slopes != nullptr) {
    const std::int64_t d = i + (p.mask.align == MaskAlign::BottomRight ? q.lk - q.lq : 0) - j;
    w = sub_rn(w, mul_rn(p.alibi_slopes[h], static_cast<float>(d < 0 ? -d : d)));
  }
  BackwardPair out;
  out.prob = backward_weight<P, Math>(p, w, lse);
  float dp = 0;
  for (int c = 0; c < p.head_dim_v; ++c)
    dp = fma_f(r.dout[c], detail::load_elem(p.in_type, p.v_ptr, kv * p.head_dim_v + c), dp);
  out.ds = mul_rn(out.prob, P::delta_subtracted ? sub_rn(dp, r.delta) : dp);
  if (p.softcap > 0) out.ds = mul_rn(out.ds, t);
  return out;
}

/// Query i of sequence s, head h: delta (where p.delta is given) and dq = fl(scale (sum_j dS_j
/// k_j)), the sum fmas from +0 in key order. A row that keeps no key (its lse -inf, or its sink:
/// never read): dq = +0, delta = +0.
template <class P, class Math>
OSVS_HD void tiled_attention_backward_row(const AttentionProblem& p, int s, std::int64_t i, int h) {
  const BackwardSequence q = backward_sequence(p, s);
  const int g = h / (p.heads_q / p.heads_kv);
  const std::int64_t token = q.q0 + i, keys = backward_keys_kept<P>(p, q, i);
  BackwardQuery r;
  load_backward_query<P>(p, token, h, r);
  if (p.delta != nullptr) p.delta[p.lse_offset(token, h)] = keys == 0 ? 0.0f : r.delta;
  float dq[kMaxBackwardHeadDim];
  for (int c = 0; c < p.head_dim_qk; ++c) dq[c] = 0.0f;
  if (keys > 0) {
    // A row that keeps a key has a finite lse (its kept scores' log-sum-exp, and the sink's).
    const float lse = p.lse[p.lse_offset(token, h)];
    for (std::int64_t j = 0; j < q.lk; ++j) {
      if (!backward_kept<P>(p, q, i, j)) continue;
      const float ds = backward_pair<P, Math>(p, q, i, h, g, j, r, lse).ds;
      const std::int64_t kv = ((q.k0 + j) * p.heads_kv + g) * p.head_dim_qk;
      for (int c = 0; c < p.head_dim_qk; ++c)
        dq[c] = osvs::detail::fma_f(ds, detail::load_elem(p.in_type, p.k_ptr, kv + c), dq[c]);
    }
  }
  const std::int64_t at = (token * p.heads_q + h) * p.head_dim_qk;
  for (int c = 0; c < p.head_dim_qk; ++c)
    detail::store_elem(p.in_type,
                       keys == 0      ? 0.0f
                       : P::dq_scaled ? osvs::detail::mul_rn(dq[c], p.scale)
                                      : dq[c],
                       p.dq_ptr, at + c);
}

/// Key j of sequence s, kv head g: dk_j (dv_j) = the sum over the group's heads in order of
/// fl(scale (sum_i dS_ij q_i)) (sum_i P_ij dout_i), each head's sum fmas from +0 in row order:
/// a kv head with one query head gives that head's bits, and GQA the left-to-right sum of the
/// heads' own. A key no row keeps: dk = dv = +0. reversed: the heads and rows in reverse order
/// (only a mutant's launches).
template <class P, class Math>
OSVS_HD void tiled_attention_backward_key(const AttentionProblem& p, int s, int g, std::int64_t j,
                                          bool reversed) {
  using osvs::detail::add_rn;
  using osvs::detail::fma_f;
  using osvs::detail::mul_rn;
  const BackwardSequence q = backward_sequence(p, s);
  const int group = p.heads_q / p.heads_kv, dqk = p.head_dim_qk, dv = p.head_dim_v;
  float dk[kMaxBackwardHeadDim], dvs[kMaxBackwardHeadDim];
  for (int c = 0; c < dqk; ++c) dk[c] = 0.0f;
  for (int c = 0; c < dv; ++c) dvs[c] = 0.0f;
  std::int64_t reached = 0;
  BackwardQuery r;
  for (int n = 0; n < group; ++n) {
    const int h = g * group + (reversed ? group - 1 - n : n);
    float dk_h[kMaxBackwardHeadDim], dv_h[kMaxBackwardHeadDim];
    for (int c = 0; c < dqk; ++c) dk_h[c] = 0.0f;
    for (int c = 0; c < dv; ++c) dv_h[c] = 0.0f;
    for (std::int64_t m = 0; m < q.lq; ++m) {
      const std::int64_t i = reversed ? q.lq - 1 - m : m;
      if (!backward_kept<P>(p, q, i, j)) continue;
      const std::int64_t token = q.q0 + i;
      load_backward_query<P>(p, token, h, r);
      const BackwardPair t =
          backward_pair<P, Math>(p, q, i, h, g, j, r, p.lse[p.lse_offset(token, h)]);
      for (int c = 0; c < dqk; ++c) dk_h[c] = fma_f(t.ds, r.q[c], dk_h[c]);
      for (int c = 0; c < dv; ++c) dv_h[c] = fma_f(t.prob, r.dout[c], dv_h[c]);
      ++reached;
    }
    // The head's sums join the kv head's: dk scaled first, so that a kv head with one query head
    // gives the bits of that head alone.
    for (int c = 0; c < dqk; ++c) {
      const float part = mul_rn(dk_h[c], p.scale);
      dk[c] = P::gqa_heads_summed ? add_rn(dk[c], part) : part;
    }
    for (int c = 0; c < dv; ++c) dvs[c] = P::gqa_heads_summed ? add_rn(dvs[c], dv_h[c]) : dv_h[c];
  }
  const std::int64_t kv = (q.k0 + j) * p.heads_kv + g;
  for (int c = 0; c < dqk; ++c)
    detail::store_elem(p.in_type, reached == 0 ? 0.0f : dk[c], p.dk_ptr, kv * dqk + c);
  for (int c = 0; c < dv; ++c)
    detail::store_elem(p.in_type, reached == 0 ? 0.0f : dvs[c], p.dv_ptr, kv * dv + c);
}

/// Head h's dsinks: the fma chain from +0 of fl(-P_sink,r) delta_r over the head's rows r that
/// keep a key, sequence after sequence, each sequence's rows in order (reversed: in reverse, only
/// a mutant's launches), P_sink,r = e^(z_h - lse_r) as a key's weight; +0 for a head whose rows
/// keep no key (the chain's start). Written in f32.
template <class P, class Math>
OSVS_HD void tiled_attention_backward_sink(const AttentionProblem& p, int h, bool reversed) {
  float sum = 0;
  BackwardQuery r;
  for (int s = 0; s < p.batch; ++s) {
    if (!P::dsinks_over_batch) sum = 0;
    const BackwardSequence q = backward_sequence(p, s);
    for (std::int64_t m = 0; m < q.lq; ++m) {
      const std::int64_t i = reversed ? q.lq - 1 - m : m, token = q.q0 + i;
      if (backward_keys_kept<P>(p, q, i) == 0) continue;  // delta = 0: no term
      load_backward_query<P>(p, token, h, r);
      const float p_sink = backward_weight<P, Math>(p, p.sinks[h], p.lse[p.lse_offset(token, h)]);
      sum = osvs::detail::fma_f(P::dsinks_negated ? -p_sink : p_sink, r.delta, sum);
    }
  }
  p.dsinks[h] = sum;
}

/// The device executor's threads (tiled_attention_backward_device.cuh), each one element's row:
/// thread t < total_q heads_q the (query token t / heads_q, head t % heads_q) row's dq and delta;
/// thread t < total_k heads_kv the (key token t / heads_kv, kv head t % heads_kv) row's dk and dv.
/// Host and device alike: a host test runs every thread, in any order, against the host executor.
template <class P, class Math>
OSVS_HD void tiled_attention_backward_row_thread(const AttentionProblem& p, std::int64_t t) {
  const std::int64_t token = t / p.heads_q;
  const int s = backward_sequence_of(p.cu_seqlens_q, token);
  tiled_attention_backward_row<P, Math>(p, s, token - p.cu_seqlens_q[s],
                                        static_cast<int>(t % p.heads_q));
}

template <class P, class Math>
OSVS_HD void tiled_attention_backward_key_thread(const AttentionProblem& p, std::int64_t t,
                                                 bool reversed) {
  const std::int64_t token = t / p.heads_kv;
  const int s = backward_sequence_of(p.cu_seqlens_k, token);
  tiled_attention_backward_key<P, Math>(p, s, static_cast<int>(t % p.heads_kv),
                                        token - p.cu_seqlens_k[s], reversed);
}

}  // namespace osvs::builtin
