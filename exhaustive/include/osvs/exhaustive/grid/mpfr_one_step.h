// The MPFR side of the one-step bound: the verdicts the double reference leaves undecided.
#pragma once

#include "osvs/exhaustive/grid/grid_check.h"
#include "osvs/kernels/state.h"

namespace osvs::exhaustive::grid {

/// T = d1 e^(m1 - m) + d2 e^(m2 - m) of a pair in the bound's domain, and whether the result r of
/// a combine holds against it with bound B (one_step_bound.h's verdict, without the margin).
/// m_i - m is exact at 320 bits (floats span 2^128 to 2^-149); e^g, the products and the sum
/// carry a relative error below 2^-315, far below any B.
bool mpfr_step_holds(State a, State b, State r, double bound);

/// check_pair with every open bound verdict decided by MPFR: when the double reference leaves it
/// open, or when `open` says another executor's double reference did (its exp may differ from
/// this one's in the last bit). *by_mpfr tells whether MPFR decided; kBoundViolated is MPFR's.
PairOutcome check_pair_decided(const GridPair& p, State ab, State ba, double exp_ulp, bool open,
                               bool* by_mpfr);

/// T in MPFR, rounded to double (the tests compare the double reference with it).
double mpfr_step_reference(State a, State b);

}  // namespace osvs::exhaustive::grid
