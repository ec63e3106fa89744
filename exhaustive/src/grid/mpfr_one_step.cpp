// T of one combine at 320 bits, and the verdict of the bound law against it.
#include "osvs/exhaustive/grid/mpfr_one_step.h"

#include <mpfr.h>

#include "mpfr_thread_caches.h"
#include "mpfr_value.h"
#include "osvs/exhaustive/grid/one_step_bound.h"

namespace osvs::exhaustive::grid {
namespace {

using oracle::detail::MpValue;

constexpr mpfr_prec_t kBits = 320;

/// t += d e^(m_i - m) (a side that contributes exactly 0 adds nothing).
void add_side(mpfr_ptr t, State s, float m) {
  if (s.m == -__builtin_huge_valf() || s.d == 0.0f) return;
  MpValue g(kBits), term(kBits);
  mpfr_set_flt(g.get(), s.m, MPFR_RNDN);       // exact
  mpfr_sub_d(g.get(), g.get(), m, MPFR_RNDN);  // exact at 320 bits
  mpfr_exp(term.get(), g.get(), MPFR_RNDN);
  mpfr_mul_d(term.get(), term.get(), s.d, MPFR_RNDN);
  mpfr_add(t, t, term.get(), MPFR_RNDN);
}

void reference(mpfr_ptr t, State a, State b) {
  oracle::detail::free_mpfr_caches_at_thread_exit();
  const float m = a.m < b.m ? b.m : a.m;
  mpfr_set_zero(t, 1);
  add_side(t, a, m);
  add_side(t, b, m);
}

}  // namespace

double mpfr_step_reference(State a, State b) {
  MpValue t(kBits);
  reference(t.get(), a, b);
  return mpfr_get_d(t.get(), MPFR_RNDN);
}

bool mpfr_step_holds(State a, State b, State r, double bound) {
  const float m = a.m < b.m ? b.m : a.m;
  if (!(r.m == m) || r.d != r.d || r.d < 0.0f) return false;
  MpValue t(kBits), x(kBits);
  reference(t.get(), a, b);
  if (r.d == __builtin_huge_valf()) {  // +inf: T + B reaches the overflow threshold
    mpfr_add_d(x.get(), t.get(), bound, MPFR_RNDN);
    return mpfr_cmp_d(x.get(), kOverflowThreshold) >= 0;
  }
  mpfr_d_sub(x.get(), r.d, t.get(), MPFR_RNDN);
  mpfr_abs(x.get(), x.get(), MPFR_RNDN);
  return mpfr_cmp_d(x.get(), bound) <= 0;
}

PairOutcome check_pair_decided(const GridPair& p, State ab, State ba, double exp_ulp, bool open,
                               bool* by_mpfr) {
  PairOutcome o = check_pair(p.a, p.b, ab, ba, exp_ulp);
  *by_mpfr = o.bound_domain && (open || (o.bits & kBoundUndecided) != 0);
  if (!*by_mpfr) return o;
  o.bits = static_cast<std::uint8_t>((o.bits & ~kBoundViolated) | kBoundUndecided);
  const double bound = one_step(p.a, p.b, exp_ulp).bound;
  if (!mpfr_step_holds(p.a, p.b, ab, bound) || !mpfr_step_holds(p.a, p.b, ba, bound))
    o.bits |= kBoundViolated;
  return o;
}

}  // namespace osvs::exhaustive::grid
