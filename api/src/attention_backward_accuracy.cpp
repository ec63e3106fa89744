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
/// that keep the key, delta_i's |dP|_ij. And, in the same pass over the kept (row, key) pairs,
/// key_s: S of every (key token, kv head) row, the largest S (row_s) of the rows that keep it.
struct GradScales {
  std::vector<double> dq, dk, dv, delta, key_s;
};

GradScales grad_scales(const AttentionCase& c, const AttentionGradExact& e,
                       const std::vector<double>& row_s) {
  const int group = c.heads_q / c.heads_kv;
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  const double scale = std::fabs(double{c.scale});
  GradScales r{std::vector<double>(c.q.size(), 0.0), std::vector<double>(c.k.size(), 0.0),
               std::vector<double>(c.v.size(), 0.0), std::vector<double>(e.delta.size(), 0.0),
               std::vector<double>(e.attended.size(), 0.0)};
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    for (std::int64_t i = 0; i < lq; ++i)
      for (int h = 0; h < c.heads_q; ++h) {
        const auto row = static_cast<std::size_t>((c.q_start(s) + i) * c.heads_q + h);
        for (std::int64_t j = 0; j < lk; ++j) {
          if (!key_kept(c.mask, i, j, lq, lk)) continue;
          const auto key = static_cast<std::size_t>((c.k_start(s) + j) * c.heads_kv + h / group);
          r.key_s[key] = std::max(r.key_s[key], row_s[row]);
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
          }
          for (std::size_t x = 0; x < dv; ++x)
            r.dv[key * dv + x] =
                std::max(r.dv[key * dv + x], std::fabs(double{c.dout[row * dv + x]}));
        }
      }
  }
  return r;
}

}  // namespace

std::vector<AttentionElementError> attention_grad_errors(const AttentionKernel& k,
                                                         const AttentionCase& c,
                                                         const AttentionOutputs& out,
                                                         const AttentionGradExact& e) {
  const AttentionGradAccuracy& a = k.grad_accuracy();
  const std::vector<double> row_s = attention_score_magnitudes(c);
  const double dot_terms = c.head_dim_qk + 1.0;
  std::vector<AttentionElementError> errors;
  // One output's elements: `dim` components a row, the row's term count n and its S.
  const GradScales scales = grad_scales(c, e, row_s);
  const auto judge = [&](AttnOutput what, const std::vector<float>& got,
                         const std::vector<double>& exact, const std::vector<double>& magnitude,
                         std::size_t dim, const std::vector<std::int64_t>& terms,
                         const std::vector<double>& score, const std::vector<double>& rest,
                         DType type) {
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
                    a.underflow * n * (rest[i] + 1) * 0x1p-149 + e.error * magnitude[i] + 0x1p-1000;
        x.error = std::fabs(double{got[i]} - exact[i]);
        x.kept = terms[row];
        x.score = score[row];
        errors.push_back(x);
      }
    }
  };
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  judge(AttnOutput::Dq, out.dq, e.dq, e.dq_magnitude, dqk, e.kept, row_s, scales.dq, c.in_type);
  if (!out.delta.empty())
    judge(AttnOutput::Delta, out.delta, e.delta, e.delta_magnitude, 1, e.kept, row_s, scales.delta,
          c.in_type);
  judge(AttnOutput::Dk, out.dk, e.dk, e.dk_magnitude, dqk, e.attended, scales.key_s, scales.dk,
        c.in_type);
  judge(AttnOutput::Dv, out.dv, e.dv, e.dv_magnitude, dv, e.attended, scales.key_s, scales.dv,
        c.in_type);
  return errors;
}

}  // namespace osvs
