// The checks of one grid pair and of one grid state, shared by the CPU model and the GPU run: both
// compute the combines their own way (host.combine, the entry's device `pairs` launcher) and hand
// the results here.
//
//   commutativity    a (+) b == b (+) a bit for bit; claimed on pairs of well-formed states
//   identity         e (+) s == s == s (+) e bit for bit, e = initial(); claimed on well-formed s
//   finite_identity  the same with (-FLT_MAX, 0), on well-formed s with finite m; every operator
//                    is held to it (properties/src/registry.cpp)
//   one_step_bound   m exact and |d_hat - T| <= B (one_step_bound.h), for a (+) b and b (+) a,
//                    on pairs in the bound's domain; every operator is held to it
// Outside a law's domain the exact laws are still compared; the differences found there are
// counted apart (they describe, e.g., how an operator canonicalises NaNs) and gate nothing.
#pragma once

#include <cstdint>

#include "osvs/exhaustive/grid/grid_space.h"
#include "osvs/exhaustive/grid/one_step_bound.h"

namespace osvs::exhaustive::grid {

enum class Law : int { Commutativity, Identity, FiniteIdentity, OneStepBound };
inline constexpr int kLaws = 4;

/// Bits of a pair's (or a state's) outcome, one per law and domain side.
enum OutcomeBit : std::uint8_t {
  kCommutativityViolated = 1,  ///< in the domain
  kCommutativityDiffers = 2,   ///< outside the domain
  kBoundViolated = 4,          ///< decided in double
  kBoundUndecided = 8,         ///< within the reference's margin: MPFR decides
  kIdentityViolated = 1,       ///< (state outcomes)
  kIdentityDiffers = 2,
  kFiniteIdentityViolated = 4,
  kFiniteIdentityDiffers = 8,
};

struct PairOutcome {
  std::uint8_t bits = 0;
  bool commutativity_domain = false;
  bool bound_domain = false;
  double ratio = 0;  ///< the larger err / B of the two orders (bound domain only)
};

/// The outcome of one pair given ab = a (+) b and ba = b (+) a.
OSVS_HD PairOutcome check_pair(State a, State b, State ab, State ba, double exp_ulp) {
  PairOutcome o;
  o.commutativity_domain = well_formed(a) && well_formed(b);
  if (!bitwise_equal(ab, ba))
    o.bits |= o.commutativity_domain ? kCommutativityViolated : kCommutativityDiffers;
  o.bound_domain = in_bound_domain(a, b);
  if (o.bound_domain) {
    const OneStep s = one_step(a, b, exp_ulp);  // symmetric in a and b
    double r1 = 0, r2 = 0;
    const StepVerdict v1 = judge_step(s, ab, &r1), v2 = judge_step(s, ba, &r2);
    if (v1 == StepVerdict::Fails || v2 == StepVerdict::Fails)
      o.bits |= kBoundViolated;
    else if (v1 == StepVerdict::Undecided || v2 == StepVerdict::Undecided)
      o.bits |= kBoundUndecided;
    o.ratio = r1 > r2 ? r1 : r2;
  }
  return o;
}

struct StateOutcome {
  std::uint8_t bits = 0;
  bool identity_domain = false;
  bool finite_identity_domain = false;
};

/// The outcome of one state s given es = e (+) s, se = s (+) e (e = the operator's initial
/// state) and fs = f (+) s, sf = s (+) f (f = (-FLT_MAX, 0)).
OSVS_HD StateOutcome check_state(State s, State es, State se, State fs, State sf) {
  StateOutcome o;
  o.identity_domain = well_formed(s);
  if (!bitwise_equal(es, s) || !bitwise_equal(se, s))
    o.bits |= o.identity_domain ? kIdentityViolated : kIdentityDiffers;
  o.finite_identity_domain = in_finite_identity_domain(s);
  if (!bitwise_equal(fs, s) || !bitwise_equal(sf, s))
    o.bits |= o.finite_identity_domain ? kFiniteIdentityViolated : kFiniteIdentityDiffers;
  return o;
}

}  // namespace osvs::exhaustive::grid
