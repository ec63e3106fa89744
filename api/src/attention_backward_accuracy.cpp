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

/// S of every (key token, kv head) row: the largest S of the query rows that keep the key.
std::vector<double> key_score_magnitudes(const AttentionCase& c, const std::vector<double>& row_s) {
  const int group = c.heads_q / c.heads_kv;
  std::vector<double> out(static_cast<std::size_t>(c.total_k() * c.heads_kv), 0.0);
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    for (std::int64_t i = 0; i < lq; ++i)
      for (std::int64_t j = 0; j < lk; ++j) {
        if (!key_kept(c.mask, i, j, lq, lk)) continue;
        for (int h = 0; h < c.heads_q; ++h) {
          double& key = out[static_cast<std::size_t>((c.k_start(s) + j) * c.heads_kv + h / group)];
          key = std::max(key, row_s[static_cast<std::size_t>((c.q_start(s) + i) * c.heads_q + h)]);
        }
      }
  }
  return out;
}

}  // namespace

std::vector<AttentionElementError> attention_grad_errors(const AttentionKernel& k,
                                                         const AttentionCase& c,
                                                         const AttentionOutputs& out,
                                                         const AttentionGradExact& e) {
  const AttentionGradAccuracy& a = k.grad_accuracy();
  const std::vector<double> row_s = attention_score_magnitudes(c);
  const std::vector<double> key_s = key_score_magnitudes(c, row_s);
  const double dot_terms = c.head_dim_qk + 1.0;
  std::vector<AttentionElementError> errors;
  // One output's elements: `dim` components a row, the row's term count n and its S.
  const auto judge = [&](AttnOutput what, const std::vector<float>& got,
                         const std::vector<double>& exact, const std::vector<double>& magnitude,
                         std::size_t dim, const std::vector<std::int64_t>& terms,
                         const std::vector<double>& score, DType type) {
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
                    a.underflow * n * 0x1p-149 + e.error * magnitude[i] + 0x1p-1000;
        x.error = std::fabs(double{got[i]} - exact[i]);
        x.kept = terms[row];
        x.score = score[row];
        errors.push_back(x);
      }
    }
  };
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  judge(AttnOutput::Dq, out.dq, e.dq, e.dq_magnitude, dqk, e.kept, row_s, c.in_type);
  if (!out.delta.empty())
    judge(AttnOutput::Delta, out.delta, e.delta, e.delta_magnitude, 1, e.kept, row_s, DType::F32);
  judge(AttnOutput::Dk, out.dk, e.dk, e.dk_magnitude, dqk, e.attended, key_s, c.in_type);
  judge(AttnOutput::Dv, out.dv, e.dv, e.dv_magnitude, dv, e.attended, key_s, c.in_type);
  return errors;
}

}  // namespace osvs
