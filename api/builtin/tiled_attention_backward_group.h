// One (sequence, kv head) of osvs's attention backward kernel on the host: the loop
// tiled_attention_backward.h describes and bounds. Every operation is one IEEE binary32 operation
// rounded once (rounded_ops.h; the host builds with -ffp-contract=off), in a fixed order: the
// bits follow the problem only. The policy P is the kernel as written (TiledAttentionBackward) or
// a mutant's one defect (api/tests/attention_backward_mutant_policies.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/rounded_ops.h"
#include "osvs/osvs.h"
#include "tiled_attention_row.h"

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

/// One kept key's score, as the forward rounds it, and its softcap derivative.
struct BackwardScore {
  float w = 0;  ///< the score: scale (q . k), softcapped, less the ALiBi bias
  float t = 1;  ///< sech^2(x) = 1 - tanh^2(x), x = score / softcap (1 without a softcap)
};

/// The working rows of one launch (reused by every group).
struct BackwardScratch {
  std::vector<float> q, dout, dq;     ///< one query row
  std::vector<float> dk_h, dv_h;      ///< one query head's sums, kv_len x dim
  std::vector<float> dk_g, dv_g;      ///< the kv head's sums over its group, kv_len x dim
  std::vector<std::int64_t> reached;  ///< rows that keep each key
  std::vector<float> dsinks;          ///< each head's sum so far (with sinks)
};

/// Sequence s, kv head g: dq of every row of its group's query heads, dk and dv of its keys,
/// delta of those rows (where p.delta is given), and (with sinks) their terms added to w.dsinks
/// of their heads. reversed: the launch takes the rows in reverse order (only a mutant's
/// launches do).
template <class P>
void tiled_attention_backward_group(const AttentionProblem& p, int s, int g, bool reversed,
                                    BackwardScratch& w) {
  using osvs::detail::add_rn;
  using osvs::detail::div_rn;
  using osvs::detail::fma_f;
  using osvs::detail::mul_rn;
  using osvs::detail::sub_rn;
  const int group = p.heads_q / p.heads_kv;
  const int dqk = p.head_dim_qk, dv = p.head_dim_v;
  const std::int64_t q0 = p.cu_seqlens_q[s], lq = p.cu_seqlens_q[s + 1] - q0;
  const std::int64_t k0 = p.cu_seqlens_k[s], lk = p.cu_seqlens_k[s + 1] - k0;
  const auto kept = [&](std::int64_t i, std::int64_t j) {
    return !P::mask_in_backward || key_kept(p.mask, i, j, lq, lk);
  };
  const auto k_at = [&](std::int64_t j, int c) {
    return detail::load_elem(p.in_type, p.k_ptr, ((k0 + j) * p.heads_kv + g) * dqk + c);
  };
  const auto v_at = [&](std::int64_t j, int c) {
    return detail::load_elem(p.in_type, p.v_ptr, ((k0 + j) * p.heads_kv + g) * dv + c);
  };
  // The score of row (i, h) and key j, rounded as the forward rounds it (tiled_attention_row.h),
  // with sech^2 of the softcap's argument from one exp: 4 e / (1 + e)^2, e = e^(-2 |x|), whose
  // error stays relative to it (1 - tanh^2 cancels where tanh nears 1).
  const auto score = [&](std::int64_t i, int h, std::int64_t j) {
    BackwardScore out;
    float dot = 0;
    for (int c = 0; c < dqk; ++c) dot = fma_f(w.q[static_cast<std::size_t>(c)], k_at(j, c), dot);
    out.w = mul_rn(dot, p.scale);
    if (p.softcap > 0) {
      const float x = div_rn(out.w, p.softcap);
      out.w = mul_rn(p.softcap, std::tanh(x));
      if (P::softcap_derivative) {
        const float e = std::exp(-mul_rn(2.0f, std::fabs(x)));
        const float one_e = add_rn(1.0f, e);
        out.t = div_rn(mul_rn(4.0f, e), mul_rn(one_e, one_e));
      }
    }
    if (p.alibi_slopes != nullptr)
      out.w = sub_rn(out.w, mul_rn(p.alibi_slopes[h],
                                   static_cast<float>(alibi_distance(p.mask, i, j, lq, lk))));
    return out;
  };

  const std::size_t kd = static_cast<std::size_t>(lk * dqk), vd = static_cast<std::size_t>(lk * dv);
  w.dk_g.assign(kd, 0.0f);
  w.dv_g.assign(vd, 0.0f);
  w.reached.assign(static_cast<std::size_t>(lk), 0);
  for (int n = 0; n < group; ++n) {
    const int h = g * group + (reversed ? group - 1 - n : n);
    w.dk_h.assign(kd, 0.0f);
    w.dv_h.assign(vd, 0.0f);
    for (std::int64_t m = 0; m < lq; ++m) {
      const std::int64_t i = reversed ? lq - 1 - m : m, row = q0 + i;
      const std::int64_t qv = (row * p.heads_q + h) * dqk, ov = (row * p.heads_q + h) * dv;
      for (int c = 0; c < dqk; ++c)
        w.q[static_cast<std::size_t>(c)] = detail::load_elem(p.in_type, p.q_ptr, qv + c);
      // delta = sum_c dout_c o_c from the given o (the forward's, rounded to its type).
      float delta = 0;
      for (int c = 0; c < dv; ++c) {
        w.dout[static_cast<std::size_t>(c)] = detail::load_elem(p.in_type, p.dout_ptr, ov + c);
        float o = detail::load_elem(p.out_type, p.o_ptr, ov + c);
        if (P::delta_from_bf16_o && p.out_type == DType::F32)
          o = float_of_bf16_bits(bf16_bits_of(o));
        delta = fma_f(w.dout[static_cast<std::size_t>(c)], o, delta);
      }
      std::int64_t keys = 0;
      for (std::int64_t j = 0; j < lk; ++j) keys += kept(i, j) ? 1 : 0;
      if (p.delta != nullptr) p.delta[p.lse_offset(row, h)] = keys == 0 ? 0.0f : delta;
      for (int c = 0; c < dqk; ++c) w.dq[static_cast<std::size_t>(c)] = 0.0f;
      if (keys > 0) {
        // A row that keeps a key has a finite lse (its kept scores' log-sum-exp, and the sink's).
        const float lse = p.lse[p.lse_offset(row, h)];
        const bool base_two = p.base == LseBase::Two && P::lse_base_two_read;
        if (p.sinks != nullptr) {
          // The sink's term - P_sink delta, P_sink = e^(z - lse) as P below (a row that keeps no
          // key has delta = 0: no term).
          const float z = p.sinks[h];
          const float p_sink =
              base_two ? std::exp2(sub_rn(mul_rn(z, kLog2E), lse)) : std::exp(sub_rn(z, lse));
          const std::size_t hh = static_cast<std::size_t>(h);
          w.dsinks[hh] = fma_f(P::dsinks_negated ? -p_sink : p_sink, delta, w.dsinks[hh]);
        }
        for (std::int64_t j = 0; j < lk; ++j) {
          if (!kept(i, j)) continue;
          const BackwardScore sc = score(i, h, j);
          // P = e^(w - lse); a base-2 lse: P = 2^(w log2(e) - lse).
          const float prob =
              base_two ? std::exp2(sub_rn(mul_rn(sc.w, kLog2E), lse)) : std::exp(sub_rn(sc.w, lse));
          float dp = 0;
          for (int c = 0; c < dv; ++c)
            dp = fma_f(w.dout[static_cast<std::size_t>(c)], v_at(j, c), dp);
          float ds = mul_rn(prob, P::delta_subtracted ? sub_rn(dp, delta) : dp);
          if (p.softcap > 0) ds = mul_rn(ds, sc.t);
          const std::size_t jk = static_cast<std::size_t>(j * dqk),
                            jv = static_cast<std::size_t>(j * dv);
          for (int c = 0; c < dqk; ++c) {
            const std::size_t cc = static_cast<std::size_t>(c);
            w.dq[cc] = fma_f(ds, k_at(j, c), w.dq[cc]);
            w.dk_h[jk + cc] = fma_f(ds, w.q[cc], w.dk_h[jk + cc]);
          }
          for (int c = 0; c < dv; ++c)
            w.dv_h[jv + static_cast<std::size_t>(c)] =
                fma_f(prob, w.dout[static_cast<std::size_t>(c)],
                      w.dv_h[jv + static_cast<std::size_t>(c)]);
          ++w.reached[static_cast<std::size_t>(j)];
        }
      }
      for (int c = 0; c < dqk; ++c) {
        const float acc = w.dq[static_cast<std::size_t>(c)];
        detail::store_elem(p.in_type,
                           keys == 0      ? 0.0f
                           : P::dq_scaled ? mul_rn(acc, p.scale)
                                          : acc,
                           p.dq_ptr, qv + c);
      }
    }
    // The head's sums join the kv head's: dk scaled first, so that a kv head with one query head
    // gives the bits of that head alone.
    for (std::size_t e = 0; e < kd; ++e) {
      const float part = mul_rn(w.dk_h[e], p.scale);
      w.dk_g[e] = P::gqa_heads_summed ? add_rn(w.dk_g[e], part) : part;
    }
    for (std::size_t e = 0; e < vd; ++e)
      w.dv_g[e] = P::gqa_heads_summed ? add_rn(w.dv_g[e], w.dv_h[e]) : w.dv_h[e];
  }
  for (std::int64_t j = 0; j < lk; ++j) {
    const bool none = w.reached[static_cast<std::size_t>(j)] == 0;  // dk = dv = +0
    const std::int64_t kt = ((k0 + j) * p.heads_kv + g) * dqk,
                       vt = ((k0 + j) * p.heads_kv + g) * dv;
    for (int c = 0; c < dqk; ++c)
      detail::store_elem(p.in_type, none ? 0.0f : w.dk_g[static_cast<std::size_t>(j * dqk + c)],
                         p.dk_ptr, kt + c);
    for (int c = 0; c < dv; ++c)
      detail::store_elem(p.in_type, none ? 0.0f : w.dv_g[static_cast<std::size_t>(j * dv + c)],
                         p.dv_ptr, vt + c);
  }
}

}  // namespace osvs::builtin
