// The accuracy measure of an attention kernel (osvs/api/attention_accuracy.h): the contract of
// docs/semantics.md §9 applied element by element.
#include "osvs/api/attention_accuracy.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace osvs {

std::vector<double> attention_score_magnitudes(const AttentionCase& c) {
  const int group = c.heads_q / c.heads_kv;
  std::vector<double> out(static_cast<std::size_t>(c.total_q() * c.heads_q), 0.0);
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    for (std::int64_t i = 0; i < lq; ++i)
      for (int h = 0; h < c.heads_q; ++h) {
        const std::size_t row = static_cast<std::size_t>((c.q_start(s) + i) * c.heads_q + h);
        const float* q = c.q.data() + row * c.head_dim_qk;
        for (std::int64_t j = 0; j < lk; ++j) {
          if (!key_kept(c.mask, i, j, lq, lk)) continue;
          const float* k =
              c.k.data() + static_cast<std::size_t>(((c.k_start(s) + j) * c.heads_kv + h / group) *
                                                    c.head_dim_qk);
          double dot = 0;
          for (int d = 0; d < c.head_dim_qk; ++d) dot += std::fabs(double{q[d]} * k[d]);
          // an ALiBi bias is rounded and added in the score's arithmetic: its size counts too
          const double bias = c.alibi_slopes.empty()
                                  ? 0.0
                                  : std::fabs(double{c.alibi_slopes[static_cast<std::size_t>(h)]}) *
                                        static_cast<double>(alibi_distance(c.mask, i, j, lq, lk));
          // (fp8 K/V: the keys attended to are k_scale k; 1 otherwise, which changes no bit)
          out[row] =
              std::max(out[row], (std::fabs(double{c.scale}) * double{c.k_scale} * dot + bias) *
                                     (1 + 0x1p-40));
          // A softcapped score is within softcap of 0, and a float tanh's error is relative to
          // it (the bias is added after the softcap).
          if (c.softcap > 0) out[row] = std::max(out[row], (c.softcap + bias) * (1 + 0x1p-40));
        }
        // A sink z_h above the scores: a float kernel rescales the keys by e^(m - z_h) and rounds
        // m - z_h, u (z_h + S) (tiled_attention.h derives the charge; a sink below the scores
        // costs a bounded u / e, and a negative one above them at most u S).
        if (!c.sinks.empty())
          out[row] = std::max(out[row], double{c.sinks[static_cast<std::size_t>(h)]});
      }
  }
  return out;
}

namespace {

/// V_c of one (token, head) row (AttentionAccuracy::o_underflow): max |v_jc| over its kept keys
/// (fp8 K/V: of the values attended to, v_scale v_jc, exact in double).
std::vector<double> value_maxima(const AttentionCase& c, std::size_t row) {
  std::vector<double> out(static_cast<std::size_t>(c.head_dim_v), 0.0);
  const std::int64_t token = static_cast<std::int64_t>(row) / c.heads_q;
  const int g = static_cast<int>(row % c.heads_q) / (c.heads_q / c.heads_kv);
  std::size_t s = 0;
  while (c.q_start(s + 1) <= token) ++s;
  const std::int64_t i = token - c.q_start(s), lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
  for (std::int64_t j = 0; j < lk; ++j) {
    if (!key_kept(c.mask, i, j, lq, lk)) continue;
    for (int d = 0; d < c.head_dim_v; ++d)
      out[d] =
          std::max(out[d], double{c.v_scale} *
                               std::fabs(double{c.v[static_cast<std::size_t>(
                                   ((c.k_start(s) + j) * c.heads_kv + g) * c.head_dim_v + d)]}));
  }
  return out;
}

}  // namespace

double ulp_in(DType t, double x) {
  const int p = precision_of(t);
  int e = 0;
  x = std::fabs(x);
  if (x > 0) std::frexp(x, &e);  // x = f 2^e, f in [0.5, 1): x's binade is e - 1
  const int binade = std::max(x > 0 ? e - 1 : min_exponent_of(t), min_exponent_of(t));
  return std::ldexp(1.0, binade - (p - 1));
}

double AttentionElementError::ulps() const {
  return std::isnan(error) ? INFINITY : error / unit;
}

double AttentionElementError::tightness() const {
  if (std::isnan(error)) return INFINITY;
  if (error == 0) return 0;
  return allowed > 0 ? error / allowed : INFINITY;
}

std::vector<AttentionElementError> attention_errors(const AttentionKernel& k,
                                                    const AttentionCase& c,
                                                    const AttentionOutputs& out,
                                                    const AttentionExact& e) {
  const std::vector<double> score = attention_score_magnitudes(c);
  const AttentionAccuracy& a = k.accuracy();
  const std::size_t dv = static_cast<std::size_t>(c.head_dim_v);
  const double dot_terms = c.head_dim_qk + 1.0;
  std::vector<AttentionElementError> errors;
  for (std::size_t row = 0; row < e.kept.size(); ++row) {
    if (e.kept[row] == 0 && c.sinks.empty()) continue;  // the empty_rows law's
    const double n = static_cast<double>(e.kept[row]);
    const double ulps = a.o_ulps + a.o_ulps_per_key * n;
    const double score_rel = a.o_per_score * dot_terms * score[row] * 0x1p-24;
    const std::vector<double> v_max = value_maxima(c, row);
    for (std::size_t cpt = 0; cpt < dv; ++cpt) {
      const std::size_t i = row * dv + cpt;
      AttentionElementError x;
      x.row = row;
      x.component = cpt;
      x.got = out.o[i];
      x.exact_rounded = e.o_rounded[i];
      x.exact = e.o[i];
      x.magnitude = e.magnitude[i];
      x.unit = ulp_in(c.in_type, e.magnitude[i]);
      x.allowed = ulps * x.unit + score_rel * e.magnitude[i] +
                  a.o_underflow * n * (v_max[cpt] + 1) * 0x1p-149;
      x.error = std::fabs(double{out.o[i]} - e.o[i]);
      x.kept = e.kept[row];
      x.score = score[row];
      errors.push_back(x);
    }
    if (out.lse.empty()) continue;
    AttentionElementError x;
    x.output = AttnOutput::Lse;
    x.row = row;
    x.got = out.lse[row];
    x.exact_rounded = e.lse_rounded[row];
    x.exact = e.lse[row];
    x.magnitude = std::max(std::fabs(e.lse[row]), 1.0);
    x.unit = ulp_in(DType::F32, x.magnitude);
    x.allowed = (a.lse_ulps + a.lse_ulps_per_key * n) * x.unit +
                a.lse_per_score * dot_terms * score[row] * 0x1p-24;
    x.error = std::fabs(double{out.lse[row]} - e.lse[row]);
    x.kept = e.kept[row];
    x.score = score[row];
    errors.push_back(x);
  }
  return errors;
}

std::string attention_element_name(AttnOutput what, std::size_t row, std::size_t component,
                                   const AttentionCase& c) {
  if (what == AttnOutput::Dsinks) return "dsinks[head " + std::to_string(row) + "]";
  const bool by_key = what == AttnOutput::Dk || what == AttnOutput::Dv;
  const auto heads = static_cast<std::size_t>(by_key ? c.heads_kv : c.heads_q);
  const std::string at = "[token " + std::to_string(row / heads) + "][" +
                         (by_key ? "kv head " : "head ") + std::to_string(row % heads) + "]";
  const std::string cpt = "[" + std::to_string(component) + "]";
  switch (what) {
    case AttnOutput::O:
      return "o" + at + cpt;
    case AttnOutput::Lse:
      return "lse" + at;
    case AttnOutput::Dq:
      return "dq" + at + cpt;
    case AttnOutput::Dk:
      return "dk" + at + cpt;
    case AttnOutput::Dv:
      return "dv" + at + cpt;
    case AttnOutput::Delta:
      return "delta" + at;
    case AttnOutput::Dsinks:
      break;  // (above)
  }
  return "?";
}

std::string attention_element_name(const AttentionElementError& e, const AttentionCase& c) {
  return attention_element_name(e.output, e.row, e.component, c);
}

}  // namespace osvs
