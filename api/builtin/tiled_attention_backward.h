// osvs's own attention backward kernel: flash-attention 2's backward in f32 arithmetic, P
// recomputed from the forward's lse, every output element computed by one function in a fixed
// order (tiled_attention_backward_elements.h, host and device alike). The host executor is below,
// the device's tiled_attention_backward_device.cuh. Both are entries of the attention kind like
// any user's backward kernel (builtin_attention.cpp, builtin_tiled_attention_backward_device.cu),
// and the original of the attention backward mutants (a Policy with one defect each,
// api/tests/attention_backward_mutant_policies.h).
//
// For a query row r = (i, h) (query i, head h of kv head g's group) and the keys j it keeps (the
// mask of docs/semantics.md §9), in order:
//   delta_r = sum_c dout_rc o_rc, a chain of fmas from +0 over the GIVEN o (the forward's output,
//     rounded to the out type; flash-attention 2's preprocessing), written to p.delta (f32, laid
//     out as the lse) when given;
//   w_rj = the score as the forward rounds it (tiled_attention.h): fl(fl(q . k_j) scale), with a
//     softcap c fl(c tanhf(x)), x = fl(score / c), with ALiBi less fl(a_h |distance|);
//   P_rj = expf(fl(w_rj - lse_r)), or with a base-2 lse exp2f(fl(fl(w_rj log2(e)) - lse_r));
//   dP_rj = dout_r . v_j (fmas from +0), dS_rj = fl(P_rj fl(dP_rj - delta_r)), with a softcap
//     times t_rj = sech^2(x) = 1 - tanh^2(x), computed as fl(fl(4 e) / fl((1 + e)^2)),
//     e = expf(-2 |x|) (1 - tanh^2 would cancel where tanh nears 1);
//   dq_r = fl(scale (sum_j dS_rj k_j)), the sum fmas from +0 in key order;
//   dk_j (dv_j) = sum over the group's heads h in order of fl(scale (sum_i dS_rj q_r))
//     (sum_i P_rj dout_r), each head's sum fmas from +0 in row order (the rows that keep key j):
//     a kv head with one query head gives that head's bits, and GQA the left-to-right sum of the
//     heads' own;
//   each written in the in type. A row that keeps no key (its lse -inf, or its sink: never
//   read): dq = +0, delta = +0; a key no row keeps: dk = dv = +0. Every element of dq, dk and dv
//   is written.
// With sinks, the lse holds the sink's term, so P above is already the weight with the sink in the
// denominator; and dsinks_h = the fma chain from +0 of fl(-P_sink,r) delta_r over the rows r of
// head h that keep a key, sequence after sequence, each sequence's rows in order, P_sink,r =
// expf(fl(z_h - lse_r)) (base 2: exp2f(fl(fl(z_h log2(e)) - lse_r))), written in f32 (+0 for a head
// whose rows keep no key: the chain's start).
//
// Its contract, to first order in u = 2^-24 (glibc's expf and exp2f within 1 ulp, 2 u
// relatively — the device's below; a relative error k u of a value of magnitude M is within
// k ulp_f32(M) <= k ulp_T(M), since ulp_f32(M) > u M): each term of dq, dk and dv (dS_rj k_jc,
// dS_rj q_rc, P_rj dout_rc) is within E u of its exact value times its magnitude (S_rj |k_jc| etc.,
// S_rj = P (|dP| + D) t the oracle's), where E sums
//   P_rj: the score (d + 1) S (d fmas and the scale); a softcap's division, tanhf and product 4 c
//     and an ALiBi bias's rounding and subtraction 2 (|s| + |b|), together <= 6 S (the laws' S
//     takes the softcap plus the bias); w log2(e) (base 2) S; the given lse within 0.5 ulp, u
//     |lse|, and the subtraction 0.5 u (|w| + |lse|), with |lse| <= S + ln n_r (lse within [max w,
//     max w + ln n_r], n_r the row's kept keys): (d + 1) S + 9 S + 1.5 ln n_r; the exp 2. A base-2
//     lse read through exp2f costs no base change beyond w log2(e).
//   t_rj (a softcap): the score's error moves x by (d + 1) S0 u / c (S0 the unsoftcapped dot's
//     size, <= S) and t by 2 |tanh x| that relatively; the computation: x's rounding doubled in
//     the exp's argument 2 |x|, expf 2, 1 + e 1 (and e's error halved: e / (1 + e) <= 1/2), the
//     square twice that plus 1, the division 1: 4 |x| + 8, |x| <= S0 / c. With c >= 1 (the cases
//     draw 1, 5, 20, 50; a smaller c scales these by 1 / c, as it scales the exact derivative's
//     sensitivity): 2 (d + 1) S + 4 S + 8.
//   dP - delta: dP's dv fmas dv |dP|, delta's dv fmas dv D (D = sum_j P |dP| >= sum_c |dout o|),
//     the subtraction 1 (|dP| + D); the given o within u_T D of delta's o (Delta below: u_T =
//     2^-24, 2^-8 bf16, 2^-11 f16: o rounded to bf16 errs by up to 2^-8 of sum_c |dout_c o_c|, not
//     2^-9) which in ulps of T (ulp_T(M) > u_T M) is one ulp_T(M_X): with dv <= 16 (the declared
//     head_dims, v as q/k) 17 + 1 ulp_T; below the normals, absolutely, w (Delta, Underflow);
//   the products P (dP - delta) and times t: 2.
// Per term: (d + 1) S + 9 S + 2 (d + 1) S + 4 S = 3 (d + 1) S + 13 S <= 9.5 (d + 1) S (d + 1 >= 2),
// and 2 + 1.5 ln n_r + 8 + 17 + 1 + 2 with ln n_r <= ln 2^31 (k_len an int32): 62.25. The sums:
// a chain of n fmas from +0 rounds each term at most n times (n u of the magnitude; dk and dv's
// per-head chains and the sum over h together at most n_X / group + group - 1 <= n_X); the scale
// (dq, dk) 1; the final rounding to T 0.5 ulp_T. In AttentionGradAccuracy's terms:
//   ulps 64 (62.25 + 1 + 0.5), ulps_per_term 1, per_score 10 (9.5 rounded up).
// dv (no t, no dP - delta) and delta (dv + 1 <= 17 ulp) are inside it.
// Delta = sum_c dout_c o_c, the fma chain from +0 over o^ = o rounded to T (the given o), for
// every T and subnormal o and dout: |o^_c - o_c| <= 0.5 ulp_T(o_c) <= u_T |o_c| + eta_T, u_T
// relative where o_c is a normal of T and eta_T = half T's smallest subnormal (2^-150 f32, 2^-134
// bf16, 2^-25 f16) absolute below. The products dout_c o^_c: f16's (11 + 11 bits, at least 2^-24
// 2^-24 = 2^-48 unless 0) are exact in f32 and far above its normals, so the chain rounds only
// relatively; bf16's (8 + 8 bits) are exact unless below 2^-126 (products of its subnormals), f32's
// exact inside the fma; a chain step below f32's normals errs by 2^-150 absolutely. So
//   |delta^ - delta| <= (u_T + dv u) D (1 + 2^-20) + eta_T sum_c |dout_c| + dv 2^-150,
// D = sum_c |dout_c| M_c >= sum_c |dout_c o_c|: u_T D is one ulp_T(D) (a subnormal D's ulp_T is
// 2 eta_T >= u_T D), dv u D <= 16 ulp_T(D), and the rest is absolute: eta_T sum_c |dout_c| is not
// within any count of ulp_T(D) — f16 o_c = 2^-24 / 3 rounds to 0, and delta loses dout_c 2^-24 / 3,
// 1250 ulp of D at dout_c = 60000, D near 2^-10 (SubnormalF16OAndDoutWithinItsContract in
// api/tests/tiled_attention_backward_test.cpp, which failed before W_X); a subnormal dout only
// scales it down. dP's chain (dout . v) the same way: dv 2^-150 below f32's normals.
// Underflow of dP - delta: w = eta_T sum_c |dout_c| + 2 dv 2^-150 absolutely (o^ and both chains),
// AttentionGradAccuracy's w_i. Each term of dq_c is P t (dP - delta) scale k_jc, P t <= 1 and
// sum_j P_j t_j <= 1 over the kept keys, so dq_c gains |scale| max_j |k_jc| w; dk_jc sums its rows'
// |scale q_ic| w P t <= n_X times the largest; delta w; dsinks sum_r P_sink,r w_r <= n_X times the
// largest: W_X each (zero for dv, which reads no delta), within underflow n_X W_X (with the
// relative parts above counted in the ulps).
// Underflow: a weight P (or a sech^2) below 2^-126 errs by up to 2^-149 absolutely, its term by
// that times the rest of the term, at most R_X (AttentionGradAccuracy: |scale| (|dP| + D) |k_jc|
// for dq, the same with |q_rc| for dk, |dout_rc| for dv; t <= 1 and P <= 1): 2 2^-149 R_X a
// term; the chains' adds, the scale and the products below 2^-126 err by up to 2^-150 each, at
// most four a term: 2^-148. In all 2 n_X (R_X + 1) 2^-149, and n_X W_X for dP - delta below the
// normals (Delta): underflow 2.
// The ln n_r term is the given lse's size (|lse| <= S + ln n_r); a contract with S taken as
// max(S, |lse|) would carry it in per_score instead.
// With a sink z_h the lse is at least z_h: |lse| <= max(S, |z_h|) + ln(n_r + 1), and the laws take
// a backward row's S as max(S, |z_h|) (AttentionGradAccuracy): every line above holds with that S
// and n_r + 1 <= 2^31 terms. dsinks_h (n_X its rows that keep a key, M_X = sum_r P_sink,r D_r,
// D_r delta's magnitude, S the largest of its rows', R_X the largest D_r): P_sink's relative
// error: the given lse u |lse|, the subtraction 0.5 u (|z| + |lse|), base 2 the product z log2(e)
// and log2(e)'s rounding (1.45 u |z|, times ln 2 in the exponent of 2), the exp 2: within
// (3 S + 1.5 ln n' + 2) u; delta's dv fmas and the given o dv u D_r + u_T D_r (one ulp_T(M_X), as
// delta's) and w_r absolutely (W_X); the fma chain from +0 n_X u M_X (one rounding a term a step).
// In ulps: 1.5 ln 2^31 + 2 + 16 + 1 = 51.25 within 64 ulps, n_X within ulps_per_term 1, 3 S within
// per_score 10 (d + 1) S; a P_sink below the normals errs by 2^-149 absolutely (times |delta_r| <=
// R_X) and the fma's product by 2^-150: within underflow 2. The same contract holds dsinks. The
// device (CUDA's expf and exp2f within 2 ulp, 4 u relatively; tanhf 2 ulp, as charged above;
// tiled_attention_math.h): P's exp 2 more, and t's e = expf(-2 |x|) 2 more, carried through
// 1 + e (halved, 1) and the square (doubled, 2) and the quotient with 4 e (2): 4 more on t — 68.25
// + 1 + 0.5 = 69.75, ulps 70; dsinks' exp 2 more, within it. The rest is the host's (the same
// operations, rounded once each).
#pragma once

#include <stdexcept>
#include <string>

#include "launch_order.h"
#include "osvs/osvs.h"
#include "tiled_attention_backward_elements.h"
#include "tiled_attention_declaration.h"

namespace osvs::builtin {

/// Whether a launch takes its rows in reverse order: never, or (the mutant) every other launch,
/// as float atomics land in an order of their own.
template <class P>
bool rows_reversed() {
  return every_other_launch<P, P::rows_in_varying_order>();
}

/// What a launch must satisfy before any element runs (both executors check it on the host):
/// a backward launch of contiguous K/V, the forward's lse and o, dout, every output (dsinks with
/// sinks), head_dims of at most kMaxBackwardHeadDim.
inline void check_tiled_backward_problem(const AttentionProblem& p) {
  if (!p.backward) throw std::invalid_argument("tiled attention backward: a forward launch");
  if (p.page_size > 0) throw std::invalid_argument("tiled attention backward: pages (undeclared)");
  if (p.lse == nullptr || p.o_ptr == nullptr || p.dout_ptr == nullptr || p.dq_ptr == nullptr ||
      p.dk_ptr == nullptr || p.dv_ptr == nullptr || (p.sinks != nullptr && p.dsinks == nullptr))
    throw std::invalid_argument(
        "tiled attention backward: lse, o, dout, dq, dk, dv and (with sinks) dsinks needed");
  if (p.head_dim_qk > kMaxBackwardHeadDim || p.head_dim_v > kMaxBackwardHeadDim)
    throw std::invalid_argument("tiled attention backward: a head_dim above " +
                                std::to_string(kMaxBackwardHeadDim));
}

/// The host executor: every query row, then every key, then every head's sink, one after another
/// (tiled_attention_backward_elements.h).
template <class P, class Math = LibraryMath>
void tiled_attention_backward(const AttentionProblem& p) {
  check_tiled_backward_problem(p);
  const bool reversed = rows_reversed<P>();
  for (int s = 0; s < p.batch; ++s) {
    const BackwardSequence q = backward_sequence(p, s);
    for (std::int64_t i = 0; i < q.lq; ++i)
      for (int h = 0; h < p.heads_q; ++h) tiled_attention_backward_row<P, Math>(p, s, i, h);
    for (std::int64_t j = 0; j < q.lk; ++j)
      for (int g = 0; g < p.heads_kv; ++g)
        tiled_attention_backward_key<P, Math>(p, s, g, j, reversed);
  }
  for (int h = 0; p.sinks != nullptr && h < p.heads_q; ++h)
    tiled_attention_backward_sink<P, Math>(p, h, reversed);
}

/// The contract derived above, the host's and the device's.
inline constexpr ExecutorContracts<AttentionGradAccuracy> kTiledAttentionBackwardAccuracy{
    .host = {64, 1, 10, 2}, .device = {70, 1, 10, 2}};

/// The declaration of the backward kernel named `name` on `where` (the builtins and every mutant
/// share it).
inline AttentionKernel declare_tiled_attention_backward(const std::string& name,
                                                        void (*run)(const AttentionProblem&),
                                                        Where where = Where::Host) {
  return tiled_attention_family(name, run, where)
      .head_dims({1, 2, 3, 4, 5, 8, 16})
      .backward(true)
      .grad_accuracy(kTiledAttentionBackwardAccuracy.on(where))
      .description(where == Where::Device
                       ? "osvs's attention backward on the device, one thread an output row (a "
                         "query's dq, a key's dk and dv, a head's dsinks; f32 arithmetic, a fixed "
                         "order, no atomics; CUDA's expf)"
                       : "osvs's attention backward on the host: flash-attention 2's, P from the "
                         "given lse, delta from the given o, the sinks' gradients (f32 "
                         "arithmetic, a fixed order)");
}

}  // namespace osvs::builtin
