// The MPFR side of the one-step bound: the verdicts the double reference leaves undecided.
#pragma once

#include "osvs/kernels/state.h"

namespace osvs::exhaustive::grid {

/// T = d1 e^(m1 - m) + d2 e^(m2 - m) of a pair in the bound's domain, and whether the result r of
/// a combine holds against it with bound B (one_step_bound.h's verdict, without the margin).
/// m_i - m is exact at 320 bits (floats span 2^128 to 2^-149); e^g, the products and the sum
/// carry a relative error below 2^-315, far below any B.
bool mpfr_step_holds(State a, State b, State r, double bound);

/// T in MPFR, rounded to double (the tests compare the double reference with it).
double mpfr_step_reference(State a, State b);

}  // namespace osvs::exhaustive::grid
