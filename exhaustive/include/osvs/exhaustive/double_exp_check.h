// The host libm's double exp and exp2 against MPFR, on the arguments osvs gives them: the fast path
// of exact_exp (every float input) and the oracle's exp_gap (x - m for floats x <= m, |x - m| <=
// 128, oracle/src/reference_common.h). Doubles cannot be enumerated: this is a measurement on a
// strided subset of the floats and on pseudo-random gaps, not a proof (reports/exp/README.md).
#pragma once

#include <cstdint>
#include <string>

#include "osvs/exhaustive/exact_exp.h"
#include "osvs/exhaustive/measurement.h"

namespace osvs::exhaustive {

struct DoubleExpCheck {
  ExpBase base = ExpBase::E;
  std::string domain;  ///< what was sampled
  std::uint64_t samples = 0;
  double max_ulp = 0;  ///< largest error in ulps of the double result (2^(floor log2 y - 52))
  double worst_argument = 0;
  double seconds = 0;
};

/// exp or exp2 of every float of `floats` with |x| <= 160 (beyond, glibc's results are 0 or inf,
/// checked by the float measurement's special ranges).
DoubleExpCheck check_double_exp_on_floats(ExpBase base, const InputRange& floats, unsigned threads);

/// exp or exp2 of every float with |x| <= 160 against glibc's long double expl / exp2l, an
/// independent implementation (x87, 64-bit significand, documented 1 ulp: 2^-11 double ulp): the
/// error of the double function on every float input, up to that 2^-11.
DoubleExpCheck check_double_exp_against_long_double(ExpBase base, unsigned threads);

/// exp of `count` gaps s = fl64(x - m) of pseudo-random floats x <= m with s >= -128 (fixed seed).
DoubleExpCheck check_double_exp_on_gaps(std::uint64_t count, unsigned threads);

}  // namespace osvs::exhaustive
