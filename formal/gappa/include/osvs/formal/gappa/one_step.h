// The Gappa scripts of the one-step error bounds of the 2-pass and 3-pass kernels, generated from
// the oracle's own error algebra (oracle/src/error_terms.h, error_algebra.h, output_error.h).
//
// Each script states one step's float computation with Gappa's binary32 rounding (round to
// nearest even, subnormals, no overflow: every value stays far below 2^128) and the exp's
// verified figure E as a hypothesis, at one parameter point (the exact inputs: the floats m and x,
// the exact D's and the error bounds err, rho the algebra carries), and asks Gappa to prove that
// every value the step can compute, for every d_hat within err of D and every exp output within
// E ulps, is within the bound the C++ algebra computes for that point, times arithmetic_safety(1).
// The bound is the double the C++ returns, written exactly: the scripts cannot drift from the
// algebra.
//
// Scaled scripts (rescale_scaled, combine_scaled, sum_scaled) take the states times every real
// lam in [1, 2^10] against lam times the bound at 2^10 over 2^10 (the least bound(lam) / lam:
// each bound is affine in lam with a nonnegative constant), wherever every rounded result stays
// normal; the others are for the point.
//
//   exp_term       e = kexp(fl(x - m)) against e^(x - m)                     charged_term
//   rescale        fl(d_hat kexp(fl(m_s - m))) against D e^(m_s - m)         rescale
//   combine        fl(fl(d_s e) + d_b) and fma(d_s, e, d_b); a tie fl(d_a + d_b)   combine_acc
//   sum            fl(s_a + s_b) of the 3-pass kernel's partial sums        rounded_sum_err
//   output         fl(kexp(fl(x - m)) / d_hat) against e^(x - m) / D        output_error
//
// The exp hypothesis, from E ulps (the exp's figure kexp_max_ulp, verified on every float input
// by exhaustive/): |e_hat - e^t| <= E ulp(e^t) <= 2^-23 E e^t + 2^-149 E for t = fl(g); and
// e^t = e^g e^(t - g) with |t - g| <= u |g|, which the script proves (exp is increasing: MPFR
// encloses e^(+-u|g|) - 1 and e^g). These constants are the format's, written here: a planted
// run halves a charge of the algebra, never the hypothesis.
#pragma once

#include <string>
#include <vector>

#include "osvs/formal/gappa/script.h"

namespace osvs::formal::gappa {

/// The charges of oracle/src/error_terms.h's StepCharges a planted run may halve.
const std::vector<std::string>& charge_names();

/// The exp figures the scripts take as hypotheses: kexp_max_ulp of both executors of this build.
std::vector<double> exp_figures();

/// Every script, each bound computed by the algebra with the default charges, or with the
/// charge `halved` (one of charge_names()) halved; throws std::invalid_argument for another name.
/// With `safety`, each bound is multiplied by arithmetic_safety(1), as the oracle multiplies every
/// bound it states (the error of evaluating it in double); without, the bare double is the goal.
std::vector<Script> one_step_scripts(const std::string& halved = "", bool safety = true);

}  // namespace osvs::formal::gappa
