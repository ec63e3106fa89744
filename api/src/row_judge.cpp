#include "osvs/api/row_judge.h"

#include <cmath>

#include "contract.h"
#include "exact_outputs.h"
#include "osvs/api/row_laws.h"

namespace osvs::api {
namespace {

/// The exact output of element j of a row that is not Finite, per the kernel's conventions
/// (NaN when the output must be NaN).
double special_expectation(const RowKernel& k, oracle::RowKind kind, const float* x, std::int64_t n,
                           std::int64_t j) {
  const double nan = std::nan("");
  const bool log = k.op() == RowOp::LogSoftmax;
  switch (kind) {
    case oracle::RowKind::AllMasked:
      if (k.conventions().masked == MaskedRow::NaN) return nan;
      return log ? -INFINITY : 0.0;
    case oracle::RowKind::PosInf: {
      if (k.conventions().pos_inf == PosInfRow::NaN) return nan;
      std::int64_t infinities = 0;
      for (std::int64_t i = 0; i < n; ++i) infinities += x[i] == INFINITY;
      if (x[j] != INFINITY) return log ? -INFINITY : 0.0;
      const double share = 1.0 / static_cast<double>(infinities);  // relative error 2^-53
      return log ? std::log(share) : share;
    }
    default:
      return nan;
  }
}

/// A special row's limit values (1/k, log(1/k)) are held to one ulp of the output type.
constexpr double kLimitUlps = 1.0;

/// How an output y failed against `want`: the class of its failure (Verdict::findings);
/// `off` names a wrong finite value (outside the contract, or not the convention's value).
std::string how_it_failed(float y, double want, const char* off) {
  if (std::isnan(want)) return "a value instead of NaN";
  if (std::isnan(y)) return "NaN instead of a value";
  if (std::isinf(y) != std::isinf(want))
    return std::isinf(y) ? "infinite" : "finite instead of infinite";
  return off;
}

/// The distance of y from the exact v under k's conventions: 0 for an output flushed to ±0
/// whose exact value is subnormal in the output type (flush_subnormal_outputs) and for one
/// within the error floor; else ulp_distance_in.
double distance_under_conventions(const RowKernel& k, float y, double v, int binade) {
  const Conventions& c = k.conventions();
  if (c.flush_subnormal_outputs && y == 0 &&
      std::fabs(v) < std::ldexp(1.0, min_exponent_of(k.out_type())))
    return 0;
  if (c.error_floor > 0 && std::isfinite(y) && std::isfinite(v) &&
      std::fabs(static_cast<double>(y) - v) <= c.error_floor)
    return 0;
  return ulp_distance_in(k.out_type(), y, v, binade);
}

}  // namespace

RowJudgement judge_row(const RowKernel& k, const float* x, std::int64_t n, const float* y,
                       const std::string& where) {
  RowJudgement r;
  std::vector<Finding> findings;  // every class of failure in the row, the first of each
  const ExactOutputs exact = exact_outputs(k.op(), x, n);
  if (exact.kind != oracle::RowKind::Finite) {
    r.special = r.judged = true;
    for (std::int64_t j = 0; j < n; ++j) {
      const double want = special_expectation(k, exact.kind, x, n, j);
      const double dist = ulp_distance_in(k.out_type(), y[j], want);
      if (dist <= kLimitUlps) continue;
      const std::string why = where + ": " + oracle::to_string(exact.kind) + " row: y[" +
                              std::to_string(j) + "] = " + readable(y[j]) +
                              ", the declared convention gives " + readable(want);
      add_finding(findings, {std::string(oracle::to_string(exact.kind)) +
                                 " row: " + how_it_failed(y[j], want, "not the convention's value"),
                             why});
      if (r.violations++ == 0)
        r.verdict =
            Verdict::fail(why, {{"y[" + std::to_string(j) + "]", y[j], want, dist, kLimitUlps}});
    }
    if (r.violations > 0) r.verdict.findings = std::move(findings);
    return r;
  }
  const auto tol = tolerance_ulps(k, x, n);
  r.judged = tol.has_value();
  for (std::int64_t j = 0; j < n; ++j) {
    const double v_j = exact.value[static_cast<std::size_t>(j)];
    const double dist =
        distance_under_conventions(k, y[j], v_j, exact.binade[static_cast<std::size_t>(j)]);
    const double allowed = tol ? (*tol)[static_cast<std::size_t>(j)] : INFINITY;
    if (dist > r.worst_ulp || r.worst_index < 0) {
      r.worst_ulp = dist;
      r.worst_index = j;
      if (r.violations == 0)
        r.verdict.evidence = {{"y[" + std::to_string(j) + "]", y[j], v_j, dist, tol ? allowed : 0}};
    }
    if (tol) r.worst_ratio = std::max(r.worst_ratio, dist / allowed);
    if (dist <= allowed) continue;
    const std::string why = where + ": y[" + std::to_string(j) + "] = " + readable(y[j]) +
                            " for x[" + std::to_string(j) + "] = " + readable(x[j]) +
                            " (n = " + std::to_string(n) + "): exact " + readable(v_j) + ", " +
                            digits9(dist) + " ulp of " + to_string(k.out_type()) + " > contract " +
                            digits9(allowed) + " (" + k.accuracy().describe() + ")";
    add_finding(findings, {"finite row: " + how_it_failed(y[j], v_j, "outside the contract"), why});
    if (r.violations++ == 0)
      r.verdict = Verdict::fail(why, {{"y[" + std::to_string(j) + "]", y[j], v_j, dist, allowed}});
  }
  if (r.violations > 0) r.verdict.findings = std::move(findings);
  if (!tol)
    r.verdict = not_judged("no accuracy contract declared (worst observed " + digits9(r.worst_ulp) +
                           " ulp)");
  return r;
}

}  // namespace osvs::api
