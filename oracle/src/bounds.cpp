// The kernels' bounds: the accounting algebras (error_algebra.h) run through the kernels' own
// reduction templates, then one output step per element.
//
// Computing a bound in double is itself inexact. Every quantity above is a sum or product of
// non-negative doubles, plus exp/expm1 (< 1 ulp) of a gap computed as double(a) - double(b)
// (relative 2^-53, so e^g is off by at most 200 * 2^-53 relative below kFarGap): each combine step
// adds at most 2^-45 relative error to D and to err, so along a path of L steps both are within
// 1.01 L 2^-45 and err / D within L 2^-43; the output step adds fewer than 30 roundings
// (< 2^-48). Every bound is therefore multiplied by arithmetic_safety(L) = 1 + 2^-40 + L 2^-43:
// not a tolerance, the error of evaluating the bound.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "error_algebra.h"
#include "fast_error_algebra.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/harness_model.h"
#include "osvs/kernels/softmax_kernel_fns.h"
#include "osvs/kernels/validate.h"
#include "osvs/oracle/bounds.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/reference.h"
#include "osvs/oracle/ulp.h"
#include "output_error.h"

namespace osvs::oracle {
namespace {

using detail::arithmetic_safety;
using detail::kU;

/// Longest chain of combines any element goes through in model_block_reduce: its thread's stride
/// loop (ceil(n / block) steps, the first against the initial value), then 5 warp and 5 block
/// steps.
double block_path(std::int64_t n, int block) {
  return static_cast<double>((n + block - 1) / block) + 2 * 5;
}

void require_finite(const float* row, std::int64_t n, const char* who) {
  const RowKind k = classify_row(row, n);
  if (k != RowKind::Finite)
    throw std::invalid_argument(std::string(who) + ": bounds are for finite rows (this row is " +
                                to_string(k) + ")");
}

void require_exp_ulp(double exp_ulp) {
  if (!(exp_ulp >= 0) || std::isinf(exp_ulp))
    throw std::invalid_argument("bound: exp_ulp must be finite and >= 0");
}

/// Ulps of y_j for y_hat_j = fl(e_hat / d_hat) with |d_hat / D - 1| <= rho: the absolute error
/// of the output step (output_error.h) over ulp(y) taken at y (1 - 2^-40), which is never above
/// ulp of the exact y.
double output_ulps(float x, float m, double D, double rho, double exp_ulp) {
  if (x == -INFINITY) return 0;  // exp(-inf) = 0 = y exactly
  const double total = detail::output_error(x, m, D, rho, exp_ulp);
  const double y = detail::exact_scale(static_cast<double>(x) - static_cast<double>(m)) / D;
  return total / ulp_of(y * (1 - 0x1p-40));
}

/// The fast kernel's output (fast_schedule.h, step 6): y_hat = fl(e_hat * a_hat) for x_j in a
/// part of maximum m_c, the row state (m, d_hat), |d_hat / D - 1| <= rho. Every exp is the
/// compensated one (compensated_exp_error: rel and abs for the gap g):
///   e_hat = fast_term(x_j, m_c)      |e_hat - N_e| <= N_e rel_e + abs_e,  N_e = e^(x_j - m_c)
///   w_hat = fast_term(m_c, m)        |w_hat - N_w| <= N_w rel_w + abs_w = w_err,  N_w = e^(m_c -
///   m)
///                                    (m_c = m: w_hat = 1 exactly, w_err = 0)
///   w_hat / d_hat (exact)            - N_w / D = (w_hat - N_w - N_w delta) / (D (1 + delta)):
///                                    |.| <= (w_err + N_w rho) / (D (1 - rho)) = a_err1
///   a_hat = fl(w_hat / d_hat)        + u |w_hat / d_hat| (normal) or 2^-150 (subnormal):
///                                    |a_hat - S| <= a_err1 + u (S + a_err1) + 2^-150 = a_err,
///                                    S = N_w / D
///   e_hat a_hat (exact)              - N_e S = (e_hat - N_e) a_hat + N_e (a_hat - S):
///                                    |.| <= (N_e rel_e + abs_e)(S + a_err) + N_e a_err = q_err
///   fl(e_hat a_hat)                  + u (y + q_err) + 2^-150,  y = N_e S = e^(x_j - m) / D
/// A scale of 0 (w_hat / d_hat below 2^-150, rounded to 0) makes the output 0: e_hat a_hat = 0,
/// the same chain. ulp(y) is taken at y (1 - 2^-40) as in output_ulps.
double fast_output_ulps(float x, float m_c, float m, double D, double rho, double exp_ulp) {
  if (x == -INFINITY) return 0;  // a masked element's output is 0 = y exactly
  const double g_e = static_cast<double>(x) - static_cast<double>(m_c);
  const detail::ExpError e = detail::compensated_exp_error(g_e, exp_ulp);
  const double N_e = detail::exact_scale(g_e);
  double N_w = 1, w_err = 0;
  if (m_c != m) {
    const double g_w = static_cast<double>(m_c) - static_cast<double>(m);
    const detail::ExpError w = detail::compensated_exp_error(g_w, exp_ulp);
    N_w = detail::exact_scale(g_w);
    w_err = N_w * w.rel + w.abs;
  }
  const double S = N_w / D;
  const double a_err1 = (w_err + N_w * rho) / (D * (1 - rho));
  const double a_err = a_err1 + kU * (S + a_err1) + detail::kSubnormalHalfUlp;
  const double y = N_e * S;
  const double q_err = (N_e * e.rel + e.abs) * (S + a_err) + N_e * a_err;
  const double total = q_err + kU * (y + q_err) + detail::kSubnormalHalfUlp;
  return total / ulp_of(y * (1 - 0x1p-40));
}

/// Fills b from the row's d accounting (D, err) along a path of `path` roundings and each
/// element's ulps, ulps(j); every y_ulp[j] is written: reused storage never shows through.
template <class ElementUlps>
void fill_bound(SoftmaxBound& b, std::int64_t n, double D, double err, double path,
                const IndexLoop* loops, ElementUlps ulps) {
  const double safety = arithmetic_safety(path);
  b.d_rel = err / D * safety;
  b.y_ulp.resize(static_cast<std::size_t>(n));
  run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t j = begin; j < end; ++j)
      b.y_ulp[static_cast<std::size_t>(j)] = ulps(j, b.d_rel) * safety;
  });
}

/// The 2-pass and 3-pass kernels' bound: every element against the row's (m, D).
void outputs_bound(SoftmaxBound& b, const float* row, std::int64_t n, float m, double D, double err,
                   double path, double exp_ulp, const IndexLoop* loops) {
  fill_bound(b, n, D, err, path, loops,
             [&](std::int64_t j, double rho) { return output_ulps(row[j], m, D, rho, exp_ulp); });
}

/// The fast kernel's bound: d from the row's accounting state (every part merged the same state),
/// each element from its part's maximum (fast_output_ulps).
void fast_outputs_bound(SoftmaxBound& b, const float* row, std::int64_t n,
                        const std::vector<FastPart<detail::AccState>>& parts, double exp_ulp,
                        const IndexLoop* loops) {
  const detail::AccState& s = parts.front().row;
  const std::int64_t span = fast_plan(n).chunk_span();
  fill_bound(b, n, s.D, s.err, detail::fast_path(n), loops, [&](std::int64_t j, double rho) {
    return fast_output_ulps(row[j], parts[static_cast<std::size_t>(j / span)].m, s.m, s.D, rho,
                            exp_ulp);
  });
}

}  // namespace

SoftmaxBound softmax_bound(KernelKind kernel, CombineKind combine, int block, const float* row,
                           std::int64_t n, double exp_ulp, const IndexLoop* loops) {
  SoftmaxBound b;
  softmax_bound_into(b, kernel, combine, block, row, n, exp_ulp, loops);
  return b;
}

void softmax_bound_into(SoftmaxBound& out, KernelKind kernel, CombineKind combine, int block,
                        const float* row, std::int64_t n, double exp_ulp, const IndexLoop* loops) {
  if (!is_supported_block(block))
    throw std::invalid_argument("bound: block size " + std::to_string(block) + " not supported");
  require_exp_ulp(exp_ulp);
  require_finite(row, n, "softmax_bound");
  switch (builtin_softmax_kernel(kernel).order) {
    case ReductionOrder::FastPlan: {
      // fast_schedule.h: every block of the row uses the merged row state, so one accounting
      // state bounds d_hat; each part scales the terms it took against its own maximum. The fast
      // kernel's exp is its own on either executor (FastKernelExp, portable_expf), so its figure
      // replaces the executor's kexp figure `exp_ulp`.
      const double fast_exp_ulp = FastKernelExp::max_ulp(false);
      return fast_outputs_bound(out, row, n,
                                model_fast_row(row, n, detail::FastAccAlg{fast_exp_ulp}),
                                fast_exp_ulp, loops);
    }
    case ReductionOrder::OnlineBlock: {
      const detail::OnlineAccAlg alg{algebra_of(combine).rescales_both_sides, exp_ulp};
      const detail::AccState s = model_block_reduce(row, n, block, alg, loops);
      return outputs_bound(out, row, n, s.m, s.D, s.err, block_path(n, block), exp_ulp, loops);
    }
    case ReductionOrder::MaxThenSumBlock: {
      // The max pass is exact (fmaxf), then the sum pass in the same block order.
      float m = -INFINITY;
      for (std::int64_t j = 0; j < n; ++j) m = fmax_k(m, row[j]);
      const detail::AccSum s =
          model_block_reduce(row, n, block, detail::SumAccAlg{m, exp_ulp}, loops);
      return outputs_bound(out, row, n, m, s.D, s.err, block_path(n, block), exp_ulp, loops);
    }
  }
  throw std::invalid_argument("bound: no model of this kernel's reduction order");
}

double harness_d_bound(const HarnessCase& c, CombineKind combine, double exp_ulp) {
  require_exp_ulp(exp_ulp);
  HarnessBatch batch;
  batch.cases.push_back(c);
  validate(batch);  // throws InvalidLaunch (an invalid_argument) with the reason
  require_finite(c.row.data(), static_cast<std::int64_t>(c.row.size()), "harness_d_bound");
  std::int64_t longest_chunk = 0;
  for (std::size_t k = 1; k < c.chunk_offsets.size(); ++k)
    longest_chunk = std::max(longest_chunk, c.chunk_offsets[k] - c.chunk_offsets[k - 1]);
  const double path = static_cast<double>(longest_chunk + std::ssize(c.merges));
  const detail::OnlineAccAlg alg{algebra_of(combine).rescales_both_sides, exp_ulp};
  const detail::AccState s = model_harness_case(c, alg, nullptr);
  if (s.zero) return 0;  // d_hat = D = 0 exactly (no element reached the root)
  return s.err / s.D * arithmetic_safety(path);
}

double bhh_softmax_bound(const float* row, std::int64_t n) {
  require_finite(row, n, "bhh_softmax_bound");
  double lo = INFINITY, hi = -INFINITY;
  for (std::int64_t j = 0; j < n; ++j) {
    if (std::isinf(row[j])) continue;  // -inf elements are masked out
    lo = std::min(lo, static_cast<double>(row[j]));
    hi = std::max(hi, static_cast<double>(row[j]));
  }
  return (static_cast<double>(n) + 2 + 2 * (hi - lo)) * kU;
}

}  // namespace osvs::oracle
