// The attention kind's oracle of a backward kernel (osvs/api/attention_laws.h): each (sequence,
// kv head) of a case is one group of oracle::attention_backward_reference, its rows the queries
// of the group's query heads (row i * group + h for query i and the group's head h), each keeping
// the keys key_kept keeps, its ALiBi slope and its sink its head's, its ALiBi position the query's
// aligned diagonal. A group's rows, then its keys, are split among the cores when the case is
// large (the result does not depend on how).
//
// The sinks' gradients. Head h's is the sum of its rows' terms x_r (the oracle's dsink, each
// within eps m_r + 2^-1000 of the exact term, m_r its magnitude, eps <= the largest group error)
// over every sequence, n_h of them nonzero (the rows that keep a key; the others are exactly 0
// and left out); its magnitude M = sum m_r likewise. Both are summed by Ogita, Rump and Oishi's
// Sum2 (TwoSum cascade, the errors summed apart, one final rounding): |Sum2 - sum y| <=
// u |sum y| + gamma_(n-1)^2 sum |y|, u = 2^-53. With sum |x^_r| <= (1 + eps) M + n 2^-1000:
//   |dsinks^ - dsinks|, |M^ - M| <= (eps + 1.01 (u + gamma_(n-1)^2)) M + 1.01 n 2^-1000
// and against the reported M^ (M <= 1.01 M^ + ... for eps + u + gamma^2 <= 2^-30):
//   dsinks_error = 1.01 (eps + 1.01 (u + gamma_(n-1)^2)), the floor n 2^-999.
#include <algorithm>
#include <stdexcept>

#include "osvs/api/attention_laws.h"
#include "osvs/kernels/parallel_for.h"
#include "osvs/kernels/rounded_ops.h"
#include "osvs/oracle/attention_backward_reference.h"

namespace osvs {
namespace {

/// Sum2 (above): the running sum and its rounding errors' sum.
struct CompensatedSum {
  double sum = 0, errors = 0;
  void add(double x) {
    const double s = sum + x;
    errors += two_sum_error(sum, x, s);
    sum = s;
  }
  double value() const { return sum + errors; }
};

/// Multiply-adds of a group below which one core judges it (thread start-up would cost more).
constexpr double kParallelWork = 1 << 22;

/// The `dim` components of row `from` of x, appended to `to`.
void append_row(std::vector<float>& to, const std::vector<float>& x, std::size_t from,
                std::size_t dim) {
  to.insert(to.end(), x.begin() + static_cast<std::ptrdiff_t>(from * dim),
            x.begin() + static_cast<std::ptrdiff_t>((from + 1) * dim));
}

/// The `dim` values of x from `at` on, written into `to`'s row `row`.
void scatter(std::vector<double>& to, std::size_t row, std::size_t dim,
             const std::vector<double>& x, std::size_t at) {
  std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(at * dim), dim,
              to.begin() + static_cast<std::ptrdiff_t>(row * dim));
}

}  // namespace

AttentionGradExact exact_attention_backward(const AttentionCase& c) {
  if (c.kv_type)  // (no backward kernel declares kv_types: its gradients have no fp8 K/V)
    throw std::invalid_argument("exact_attention_backward: a case with fp8 K/V");
  const auto hq = static_cast<std::size_t>(c.heads_q), hk = static_cast<std::size_t>(c.heads_kv);
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  const std::size_t group = hq / hk;
  AttentionGradExact e;
  e.dq.assign(c.q.size(), 0.0);
  e.dq_magnitude.assign(c.q.size(), 0.0);
  e.dk.assign(c.k.size(), 0.0);
  e.dk_magnitude.assign(c.k.size(), 0.0);
  e.dv.assign(c.v.size(), 0.0);
  e.dv_magnitude.assign(c.v.size(), 0.0);
  e.delta.assign(static_cast<std::size_t>(c.total_q()) * hq, 0.0);
  e.delta_magnitude.assign(e.delta.size(), 0.0);
  e.kept.assign(e.delta.size(), 0);
  e.attended.assign(static_cast<std::size_t>(c.total_k()) * hk, 0);
  const bool sinks = !c.sinks.empty();
  std::vector<CompensatedSum> dsinks(sinks ? hq : 0), dsinks_magnitude(dsinks.size());
  if (sinks) e.sink_rows.assign(hq, 0);
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    const auto q0 = static_cast<std::size_t>(c.q_start(s)),
               k0 = static_cast<std::size_t>(c.k_start(s));
    const auto rows = static_cast<std::size_t>(lq) * group;
    std::vector<std::uint8_t> masked(rows * static_cast<std::size_t>(lk));
    std::vector<std::int64_t> position(rows);
    for (std::int64_t i = 0; i < lq; ++i)
      for (std::size_t h = 0; h < group; ++h) {
        const std::size_t r = static_cast<std::size_t>(i) * group + h;
        for (std::int64_t j = 0; j < lk; ++j)
          masked[r * static_cast<std::size_t>(lk) + static_cast<std::size_t>(j)] =
              key_kept(c.mask, i, j, lq, lk) ? 0 : 1;
        position[r] = i + (c.mask.align == MaskAlign::BottomRight ? lk - lq : 0);
      }
    for (std::size_t g = 0; g < hk; ++g) {
      std::vector<float> q, dout, k, v, slope, sink;
      for (std::int64_t i = 0; i < lq; ++i)
        for (std::size_t h = g * group; h < (g + 1) * group; ++h) {
          const std::size_t row = (q0 + static_cast<std::size_t>(i)) * hq + h;
          append_row(q, c.q, row, dqk);
          append_row(dout, c.dout, row, dv);
          if (!c.alibi_slopes.empty()) slope.push_back(c.alibi_slopes[h]);
          if (sinks) sink.push_back(c.sinks[h]);
        }
      for (std::int64_t j = 0; j < lk; ++j) {
        append_row(k, c.k, (k0 + static_cast<std::size_t>(j)) * hk + g, dqk);
        append_row(v, c.v, (k0 + static_cast<std::size_t>(j)) * hk + g, dv);
      }
      oracle::AttentionBackwardGroup a;
      a.rows = static_cast<std::int64_t>(rows);
      a.kv_len = lk;
      a.head_dim = c.head_dim_qk;
      a.v_dim = c.head_dim_v;
      a.q = q.data();
      a.dout = dout.data();
      a.k = k.data();
      a.v = v.data();
      a.masked = masked.data();
      a.scale = c.scale;
      a.softcap = c.softcap;
      if (!slope.empty()) {
        a.alibi_slope = slope.data();
        a.alibi_position = position.data();
      }
      if (sinks) a.sink = sink.data();
      const double work = static_cast<double>(rows) * static_cast<double>(lk) *
                          static_cast<double>(2 * dqk + 2 * dv);
      const oracle::AttentionBackwardReference r =
          oracle::attention_backward_reference(a, work >= kParallelWork ? worker_count() : 1);
      if (!r.finite) {
        e.finite = false;
        return e;
      }
      e.error = std::max(e.error, r.error);
      e.mpfr_groups += r.mpfr ? 1 : 0;
      for (std::int64_t i = 0; i < lq; ++i)
        for (std::size_t h = 0; h < group; ++h) {
          const std::size_t at = static_cast<std::size_t>(i) * group + h;
          const std::size_t row = (q0 + static_cast<std::size_t>(i)) * hq + g * group + h;
          scatter(e.dq, row, dqk, r.dq, at);
          scatter(e.dq_magnitude, row, dqk, r.dq_magnitude, at);
          e.delta[row] = r.delta[at];
          e.delta_magnitude[row] = r.delta_magnitude[at];
          e.kept[row] = r.kept[at];
          if (sinks && r.kept[at] > 0) {
            dsinks[g * group + h].add(r.dsink[at]);
            dsinks_magnitude[g * group + h].add(r.dsink_magnitude[at]);
            ++e.sink_rows[g * group + h];
          }
        }
      for (std::int64_t j = 0; j < lk; ++j) {
        const std::size_t row = (k0 + static_cast<std::size_t>(j)) * hk + g;
        const auto at = static_cast<std::size_t>(j);
        scatter(e.dk, row, dqk, r.dk, at);
        scatter(e.dk_magnitude, row, dqk, r.dk_magnitude, at);
        scatter(e.dv, row, dv, r.dv, at);
        scatter(e.dv_magnitude, row, dv, r.dv_magnitude, at);
        e.attended[row] = r.attended[at];
      }
    }
  }
  if (sinks) {  // the sums and their bound (above)
    std::int64_t most = 0;
    for (std::size_t h = 0; h < hq; ++h) {
      e.dsinks.push_back(dsinks[h].value());
      e.dsinks_magnitude.push_back(dsinks_magnitude[h].value());
      most = std::max(most, e.sink_rows[h]);
    }
    const double u = 0x1p-53, nu = static_cast<double>(std::max<std::int64_t>(most - 1, 0)) * u;
    const double gamma = nu / (1 - nu);
    e.dsinks_error = 1.01 * (e.error + 1.01 * (u + gamma * gamma));
  }
  return e;
}

}  // namespace osvs
