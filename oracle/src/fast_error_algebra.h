// The error-accounting algebra of the fast kernel: fast_schedule.h's order (kernels) run over
// accounting states, so that the bound follows the kernel's own trees (see error_algebra.h).
//
//   step 1   the thread's m_t = max of its values (exact); each value's term kexp(fl(x - m_t)) is
//            SumAccAlg's lift (the plain difference: exp_error), the pairwise tree of sums is
//            SumAccAlg's combine (one rounding a sum): (m_t, D, err)
//   2 - 4    the hardened combine's accounting, OnlineAccAlg (rescale of the smaller side only)
#pragma once

#include "error_algebra.h"
#include "osvs/kernels/fast_schedule.h"

namespace osvs::oracle::detail {

struct FastAccAlg {
  using value_type = AccState;
  double exp_ulp;

  AccState initial() const { return {}; }
  AccState combine(const AccState& a, const AccState& b) const {
    return OnlineAccAlg{false, exp_ulp}.combine(a, b);
  }
  AccState thread_state(const float* v, int count) const {
    switch (count) {
      case 4:
        return thread<4>(v);
      case 8:
        return thread<8>(v);
      case 16:
        return thread<16>(v);
      default:
        return thread<32>(v);
    }
  }

 private:
  template <int V>
  AccState thread(const float* v) const {
    float m = -INFINITY;
    for (int i = 0; i < V; ++i) m = fmax_k(m, v[i]);
    if (m == -INFINITY) return {};  // only masked values: the identity, exactly
    const SumAccAlg sum{m, exp_ulp};
    const AccSum s = pairwise_tree<V>(
        0, [&](int i) { return sum.lift(v[i]); },
        [&](const AccSum& a, const AccSum& b) { return sum.combine(a, b); });
    return {m, s.D, s.err, false};
  }
};

/// Longest chain of roundings an element's term goes through in the fast kernel: the thread's
/// tree, the warp and block trees, and for split rows the chunk merge's (a binary-counter tree
/// over q states has depth <= ceil(log2 q) + 1) and the second warp and block trees.
inline double fast_path(std::int64_t n) {
  const FastPlan p = fast_plan(n);
  double levels = 5 + 5 + 5;  // log2(32) thread levels at most, warp, block
  if (p.chunks > 1) {
    double depth = 1;
    for (std::int64_t q = fast_merge_per_thread(p.chunks, p.threads); q > 1; q = (q + 1) / 2)
      ++depth;
    levels += depth + 5 + 5;
  }
  return levels;
}

}  // namespace osvs::oracle::detail
