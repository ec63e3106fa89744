// The exact attention gradients (attention_backward_reference.h): the fast path in double where
// its certified bound is within kBackwardFastError, else MPFR interval arithmetic.
#include "osvs/oracle/attention_backward_reference.h"

#include <cmath>
#include <cstddef>

#include "attention_backward_internal.h"

namespace osvs::oracle {
namespace detail {
namespace {

bool all_finite(const float* x, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

}  // namespace

AttentionBackwardReference backward_outline(const AttentionBackwardGroup& g) {
  AttentionBackwardReference r;
  r.kept.assign(static_cast<std::size_t>(g.rows), 0);
  r.attended.assign(static_cast<std::size_t>(g.kv_len), 0);
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.kv_len; ++j)
      if (keeps(g, i, j)) {
        ++r.kept[static_cast<std::size_t>(i)];
        ++r.attended[static_cast<std::size_t>(j)];
      }
  const int d = g.head_dim, dv = g.v_dim;
  for (std::int64_t i = 0; i < g.rows && r.finite; ++i)
    r.finite = r.kept[static_cast<std::size_t>(i)] == 0 ||
               (all_finite(g.q + i * d, d) && all_finite(g.dout + i * dv, dv));
  for (std::int64_t j = 0; j < g.kv_len && r.finite; ++j)
    r.finite = r.attended[static_cast<std::size_t>(j)] == 0 ||
               (all_finite(g.k + j * d, d) && all_finite(g.v + j * dv, dv));
  // (a sink is in every denominator of its rows, a row that keeps no key's too)
  if (g.sink != nullptr) r.finite = r.finite && all_finite(g.sink, g.rows);
  if (!r.finite) return r;
  const auto rows = static_cast<std::size_t>(g.rows), keys = static_cast<std::size_t>(g.kv_len);
  r.dq.assign(rows * static_cast<std::size_t>(d), 0.0);
  r.dq_magnitude = r.dq;
  r.dk.assign(keys * static_cast<std::size_t>(d), 0.0);
  r.dk_magnitude = r.dk;
  r.dv.assign(keys * static_cast<std::size_t>(dv), 0.0);
  r.dv_magnitude = r.dv;
  r.delta.assign(rows, 0.0);
  r.delta_magnitude = r.delta;
  r.dsink = r.delta;
  r.dsink_magnitude = r.delta;
  return r;
}

}  // namespace detail

AttentionBackwardReference attention_backward_reference(const AttentionBackwardGroup& g,
                                                        int workers) {
  AttentionBackwardReference r = detail::backward_outline(g);
  if (!r.finite) return r;
  if (detail::attention_backward_fast(g, workers, r)) return r;
  r = attention_backward_reference_mpfr(g);
  r.mpfr = true;
  return r;
}

}  // namespace osvs::oracle
