// The accuracy measure of a backward attention kernel (osvs/api/attention_accuracy.h): the
// contract of AttentionGradAccuracy (docs/semantics.md §9.4) applied to every gradient element,
// with the oracle's own certified error (exact_attention_backward) added to the allowance: the
// oracle encloses the exact gradient, it does not round it, so an error is judged against the
// farthest point of the enclosure.
#include <algorithm>
#include <cmath>

#include "osvs/api/attention_accuracy.h"

namespace osvs {
namespace {

/// R_X of every gradient element (AttentionGradAccuracy's underflow term): the largest factor
/// a weight P_ij multiplies in one of X's terms, in double (a bound's parameter). With rest_ij =
/// |dP|_ij + delta's magnitude (>= |dP_ij - delta_i|, and t_ij <= 1): dq_ic's |scale| rest_ij
/// |k_jc| over its kept keys, dk_jc's |scale| rest_ij |q_ic| and dv_jc's |dout_ic| over the rows
/// that keep the key, delta_i's |dP|_ij, dsinks_h's delta's magnitude over the head's rows that
/// keep a key (P_sink multiplies delta_i). And, in the same pass over the kept (row, key) pairs,
/// key_s: S of every (key token, kv head) row, the largest S (row_s) of the rows that keep it;
/// head_s: S of every head's dsinks, the largest of its rows'. And W_X (AttentionGradAccuracy's
/// underflow term), the absolute error dP_ij - delta_i carries below the normals, times the
/// factor it multiplies in one of X's terms: w_i = eta_T sum_c |dout_ic| (the given o, rounded to
/// the in type T, within eta_T = half T's smallest subnormal of o_c absolutely where o_c is below
/// T's normals) + 2 dv 2^-150 (the fma chains of dP and delta, dv roundings each below f32's
/// normals); dq_ic's |scale k_jc| w_i over its kept keys (the weights P_ij t_ij of its terms sum
/// to at most 1), dk_jc's |scale q_ic| w_i over the rows that keep the key, delta_i's w_i,
/// dsinks_h's w_i over its rows (P_sink multiplies delta_i); dv reads no delta: 0.
struct GradScales {
  std::vector<double> dq, dk, dv, delta, dsinks, key_s, head_s;
  std::vector<double> w_dq, w_dk, w_dv, w_delta, w_dsinks;
};

GradScales grad_scales(const AttentionCase& c, const AttentionGradExact& e,
                       const std::vector<double>& row_s) {
  // half the smallest subnormal of the in type: 2^-150 (f32), 2^-134 (bf16), 2^-25 (f16)
  const double eta = ulp_in(c.in_type, 0) / 2;
  const int group = c.heads_q / c.heads_kv;
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  const double scale = std::fabs(double{c.scale});
  GradScales r{
      std::vector<double>(c.q.size(), 0.0),     std::vector<double>(c.k.size(), 0.0),
      std::vector<double>(c.v.size(), 0.0),     std::vector<double>(e.delta.size(), 0.0),
      std::vector<double>(c.sinks.size(), 0.0), std::vector<double>(e.attended.size(), 0.0),
      std::vector<double>(c.sinks.size(), 0.0), std::vector<double>(c.q.size(), 0.0),
      std::vector<double>(c.k.size(), 0.0),     std::vector<double>(c.v.size(), 0.0),
      std::vector<double>(e.delta.size(), 0.0), std::vector<double>(c.sinks.size(), 0.0)};
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    for (std::int64_t i = 0; i < lq; ++i)
      for (int h = 0; h < c.heads_q; ++h) {
        const auto row = static_cast<std::size_t>((c.q_start(s) + i) * c.heads_q + h);
        double w = 2 * static_cast<double>(dv) * 0x1p-150;
        for (std::size_t x = 0; x < dv; ++x) w += eta * std::fabs(c.dout[row * dv + x]);
        for (std::int64_t j = 0; j < lk; ++j) {
          if (!key_kept(c.mask, i, j, lq, lk)) continue;
          const auto key = static_cast<std::size_t>((c.k_start(s) + j) * c.heads_kv + h / group);
          r.key_s[key] = std::max(r.key_s[key], row_s[row]);
          if (!c.sinks.empty()) {
            const auto head = static_cast<std::size_t>(h);
            r.head_s[head] = std::max(r.head_s[head], row_s[row]);
            r.dsinks[head] = std::max(r.dsinks[head], e.delta_magnitude[row]);
            r.w_dsinks[head] = std::max(r.w_dsinks[head], w);
          }
          r.w_delta[row] = w;
          double dp = 0;
          for (std::size_t x = 0; x < dv; ++x)
            dp += std::fabs(double{c.dout[row * dv + x]} * c.v[key * dv + x]);
          r.delta[row] = std::max(r.delta[row], dp);
          const double rest = (dp + e.delta_magnitude[row]) * scale;
          for (std::size_t x = 0; x < dqk; ++x) {
            r.dq[row * dqk + x] =
                std::max(r.dq[row * dqk + x], rest * std::fabs(c.k[key * dqk + x]));
            r.dk[key * dqk + x] =
                std::max(r.dk[key * dqk + x], rest * std::fabs(c.q[row * dqk + x]));
            r.w_dq[row * dqk + x] =
                std::max(r.w_dq[row * dqk + x], scale * std::fabs(c.k[key * dqk + x]) * w);
            r.w_dk[key * dqk + x] =
                std::max(r.w_dk[key * dqk + x], scale * std::fabs(c.q[row * dqk + x]) * w);
          }
          for (std::size_t x = 0; x < dv; ++x)
            r.dv[key * dv + x] =
                std::max(r.dv[key * dv + x], std::fabs(double{c.dout[row * dv + x]}));
        }
      }
  }
  return r;
}

/// S of every (token, head) row of c for a backward kernel: the forward's (AttentionAccuracy),
/// and with a sink z_h at least |z_h|. A kernel recomputes P = e^(w - lse) from the lse, which
/// the sink bounds from below (lse >= z_h) and which is within max(S, |z_h|) + ln(n + 1) of 0:
/// its rounding errs by u |lse|, which AttentionGradAccuracy's per_score term carries in S.
std::vector<double> grad_score_magnitudes(const AttentionCase& c) {
  std::vector<double> s = attention_score_magnitudes(c);
  for (std::size_t row = 0; row < s.size() && !c.sinks.empty(); ++row)
    s[row] =
        std::max(s[row], std::fabs(double{c.sinks[row % static_cast<std::size_t>(c.heads_q)]}));
  return s;
}

}  // namespace

std::vector<AttentionElementError> attention_grad_errors(const AttentionKernel& k,
                                                         const AttentionCase& c,
                                                         const AttentionOutputs& out,
                                                         const AttentionGradExact& e) {
  const AttentionGradAccuracy& a = k.grad_accuracy();
  const std::vector<double> row_s = grad_score_magnitudes(c);
  const double dot_terms = c.head_dim_qk + 1.0;
  std::vector<AttentionElementError> errors;
  const GradScales scales = grad_scales(c, e, row_s);
  // One output's elements: `dim` components a row, the row's term count n and its S; the oracle's
  // bound error * M + floor (floor 2^-1000, or n 2^-999 for dsinks, a sum of n rows' terms).
  // An output `out` leaves empty is not judged.
  const auto judge = [&](AttnOutput what, const std::vector<float>& got,
                         const std::vector<double>& exact, const std::vector<double>& magnitude,
                         std::size_t dim, const std::vector<std::int64_t>& terms,
                         const std::vector<double>& score, const std::vector<double>& rest,
                         const std::vector<double>& rest_abs, DType type) {
    if (got.empty()) return;
    const bool summed_rows = what == AttnOutput::Dsinks;
    const double oracle_error = summed_rows ? e.dsinks_error : e.error;
    for (std::size_t row = 0; row < terms.size(); ++row) {
      if (terms[row] == 0) continue;  // the empty_rows law's
      const double n = static_cast<double>(terms[row]);
      for (std::size_t cpt = 0; cpt < dim; ++cpt) {
        const std::size_t i = row * dim + cpt;
        AttentionElementError x;
        x.output = what;
        x.row = row;
        x.component = cpt;
        x.got = got[i];
        x.exact = exact[i];
        x.exact_rounded = static_cast<float>(exact[i]);
        x.magnitude = magnitude[i];
        x.unit = ulp_in(type, magnitude[i]);
        x.allowed = (a.ulps + a.ulps_per_term * n) * x.unit +
                    a.per_score * dot_terms * score[row] * 0x1p-24 * magnitude[i] +
                    a.underflow * n * ((rest[i] + 1) * 0x1p-149 + rest_abs[i]) +
                    oracle_error * magnitude[i] + (summed_rows ? n * 0x1p-999 : 0x1p-1000);
        x.error = std::fabs(double{got[i]} - exact[i]);
        x.kept = terms[row];
        x.score = score[row];
        errors.push_back(x);
      }
    }
  };
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  judge(AttnOutput::Dq, out.dq, e.dq, e.dq_magnitude, dqk, e.kept, row_s, scales.dq, scales.w_dq,
        c.in_type);
  judge(AttnOutput::Delta, out.delta, e.delta, e.delta_magnitude, 1, e.kept, row_s, scales.delta,
        scales.w_delta, c.in_type);
  judge(AttnOutput::Dk, out.dk, e.dk, e.dk_magnitude, dqk, e.attended, scales.key_s, scales.dk,
        scales.w_dk, c.in_type);
  judge(AttnOutput::Dv, out.dv, e.dv, e.dv_magnitude, dv, e.attended, scales.key_s, scales.dv,
        scales.w_dv, c.in_type);
  judge(AttnOutput::Dsinks, out.dsinks, e.dsinks, e.dsinks_magnitude, 1, e.sink_rows, scales.head_s,
        scales.dsinks, scales.w_dsinks, c.in_type);
  return errors;
}

}  // namespace osvs
