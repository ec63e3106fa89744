// osvs's own state reductions as the reduction kind's entries (osvs/api/state_reduction.h):
// the logsumexp combine and the Welford / Chan merge (kernels/reductions/), their fields, exact
// references (the oracle's MPFR) and derived tolerances. A mutant derives from one of these
// types, replaces what it breaks, and is declared by the same function.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "osvs/api/state_reduction.h"
#include "osvs/kernels/reductions/logsumexp.h"
#include "osvs/kernels/reductions/welford.h"
#include "osvs/oracle/moments_reference.h"
#include "osvs/oracle/reference.h"

namespace osvs::builtin {

/// max |x| over the finite elements of row (0 when none), and max x - min x over them.
inline double max_abs_finite(std::span<const float> row) {
  double m = 0;
  for (float x : row)
    if (std::isfinite(x)) m = std::max(m, std::fabs(static_cast<double>(x)));
  return m;
}
inline double range_finite(std::span<const float> row) {
  double lo = INFINITY, hi = -INFINITY;
  for (float x : row)
    if (std::isfinite(x))
      lo = std::min(lo, static_cast<double>(x)), hi = std::max(hi, static_cast<double>(x));
  return hi >= lo ? hi - lo : 0;
}

struct LogsumexpReduction : LogsumexpOp {
  static constexpr auto kStateFields = fields(field("lse", &State::lse));
  struct Result {
    float lse;
  };
  static constexpr auto kResultFields = fields(field("lse", &Result::lse));
  OSVS_HD static Result finalise(State s) { return {LogsumexpOp::finalise(s)}; }
  /// NaN anywhere -> NaN; +inf -> +inf; empty or all -inf -> -inf; else the exact lse.
  static std::vector<double> exact(std::span<const float> row) {
    const oracle::RowReference r =
        oracle::reference_row(row.data(), static_cast<std::int64_t>(row.size()));
    switch (r.kind) {
      case oracle::RowKind::NaN:
        return {NAN};
      case oracle::RowKind::PosInf:
        return {INFINITY};
      case oracle::RowKind::AllMasked:
      case oracle::RowKind::Empty:
        return {-INFINITY};
      default:
        return {r.lse};
    }
  }
};

/// What a logsumexp reduction declares beside its type (osvs's, on the host or the device, or a
/// mutant of it): its claims, domain and derived tolerance.
inline ReductionKernel logsumexp_declared(ReductionKernel k) {
  return k.bitwise_commutative()
      .exact_identity()
      .max_abs(0x1p10f)
      .tolerance([](std::size_t, const ReductionShape& s) {
        return logsumexp_tolerance(s.depth, max_abs_finite(s.row),
                                   static_cast<std::int64_t>(s.row.size()));
      })
      .bound_derivation("kernels/include/osvs/kernels/reductions/logsumexp.h")
      .description("log-sum-exp state L, combined as hi + log(1 + exp(lo - hi))");
}

/// The declaration of a logsumexp reduction R on the host (osvs's or a mutant of it).
template <class R>
ReductionKernel logsumexp_kernel(std::string name) {
  return logsumexp_declared(state_reduction<R>(std::move(name)));
}

struct WelfordReduction : WelfordOp {
  static constexpr auto kStateFields =
      fields(field("n", &State::n), field("mean", &State::mean), field("m2", &State::m2));
  static constexpr auto kResultFields = fields(
      field("count", &Result::count), field("mean", &Result::mean), field("var", &Result::var));
  /// count, mean, population variance; NaN mean and variance for an empty or non-finite row.
  static std::vector<double> exact(std::span<const float> row) {
    const oracle::Moments m = oracle::moments_reference(row);
    return {static_cast<double>(m.n), m.mean, m.var};
  }
};

/// What a Welford reduction declares beside its type (osvs's, on the host or the device, or a
/// mutant of it): its claims, domain and derived tolerances.
inline ReductionKernel welford_declared(ReductionKernel k) {
  return k.bitwise_commutative()
      .exact_identity()
      .max_abs(0x1p20f)
      .tolerance([](std::size_t field, const ReductionShape& s) {
        const WelfordTolerance t =
            welford_tolerance(s.depth, static_cast<std::int64_t>(s.row.size()),
                              max_abs_finite(s.row), range_finite(s.row), (*s.exact)[2]);
        return field == 0 ? t.count : field == 1 ? t.mean : t.var;
      })
      .bound_derivation("kernels/include/osvs/kernels/reductions/welford.h")
      .description(
          "Welford / Chan (n, mean, M2) merged pairwise; count, mean, population variance");
}

/// The declaration of a Welford reduction R on the host (osvs's or a mutant of it).
template <class R>
ReductionKernel welford_kernel(std::string name) {
  return welford_declared(state_reduction<R>(std::move(name)));
}

}  // namespace osvs::builtin
