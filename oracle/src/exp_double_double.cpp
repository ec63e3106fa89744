#include "exp_double_double.h"

#include <mpfr.h>

#include <array>
#include <cmath>

#include "mpfr_thread_caches.h"
#include "mpfr_value.h"

namespace osvs::oracle::detail {
namespace {

constexpr int kDegree = 11;
constexpr int kTableBits = 6;  // T(i) = 2^(i / 64)

struct ExpConstants {
  double l1 = 0, l2 = 0, l3 = 0;                  // ln2 / 64 = l1 + l2 + l3 + tail
  std::array<DoubleDouble, 1 << kTableBits> two;  // 2^(i / 64)
  std::array<DoubleDouble, kDegree + 1> inv_factorial;
};

/// v rounded to `bits` significant bits, subtracted from v (exactly).
double split_off(mpfr_t v, mpfr_t scratch, int bits) {
  mpfr_set_prec(scratch, bits);
  mpfr_set(scratch, v, MPFR_RNDN);
  const double part = mpfr_get_d(scratch, MPFR_RNDN);  // exact: bits <= 53
  mpfr_sub_d(v, v, part, MPFR_RNDN);                   // exact at the working precision
  return part;
}

ExpConstants make_constants() {
  free_mpfr_caches_at_thread_exit();
  constexpr mpfr_prec_t kPrec = 400;
  ExpConstants c;
  MpValue value(kPrec), scratch_value(kPrec);
  const mpfr_ptr v = value.get(), scratch = scratch_value.get();
  mpfr_const_log2(v, MPFR_RNDN);
  mpfr_div_ui(v, v, 1u << kTableBits, MPFR_RNDN);
  c.l1 = split_off(v, scratch, 38);
  c.l2 = split_off(v, scratch, 38);
  c.l3 = mpfr_get_d(v, MPFR_RNDN);  // the tail left: <= u |l3| <= 2^-135.5
  mpfr_set_prec(scratch, kPrec);
  for (int i = 0; i < (1 << kTableBits); ++i) {
    mpfr_set_ui(v, static_cast<unsigned long>(i), MPFR_RNDN);
    mpfr_div_ui(v, v, 1u << kTableBits, MPFR_RNDN);  // exact
    mpfr_exp2(v, v, MPFR_RNDN);
    c.two[static_cast<std::size_t>(i)] = to_double_double(v, scratch);
  }
  mpfr_set_ui(v, 1, MPFR_RNDN);
  for (int k = 0; k <= kDegree; ++k) {
    if (k > 0) mpfr_div_ui(v, v, static_cast<unsigned long>(k), MPFR_RNDN);
    c.inv_factorial[static_cast<std::size_t>(k)] = to_double_double(v, scratch);
  }
  return c;
}

const ExpConstants& constants() {
  static const ExpConstants c = make_constants();
  return c;
}

}  // namespace

DoubleDouble to_double_double(mpfr_t v, mpfr_t scratch) {
  const double h = mpfr_get_d(v, MPFR_RNDN);
  mpfr_sub_d(scratch, v, h, MPFR_RNDN);  // exact: the working precision holds it
  return {h, mpfr_get_d(scratch, MPFR_RNDN)};
}

bool exp_gap_dd(float x, float m, DoubleDouble* out) {
  return exp_dd(two_sum(static_cast<double>(x), -static_cast<double>(m)), out);
}

bool exp_dd(DoubleDouble g, DoubleDouble* out) {
  const ExpConstants& c = constants();
  if (!(std::fabs(g.h) <= 129)) return false;  // keeps |k| < 2^14 (the analysis in the header)
  const double scaled = g.h * (64 / 0.693147180559945309);  // any k near g / L will do
  const int k = static_cast<int>(scaled + (scaled >= 0 ? 0.5 : -0.5));
  const double kd = k;
  const DoubleDouble a = two_sum(g.h, -(kd * c.l1));
  const DoubleDouble b = two_sum(a.h, -(kd * c.l2));
  const double low = (b.l + a.l) + (g.l - kd * c.l3);
  const DoubleDouble r = two_sum(b.h, low);
  if (!(std::fabs(r.h) <= 0x1p-6)) return false;
  DoubleDouble p = c.inv_factorial[kDegree];
  for (int j = kDegree - 1; j >= 0; --j)
    p = dd_add(c.inv_factorial[static_cast<std::size_t>(j)], dd_mul(r, p));
  const int q = k >= 0 ? k >> kTableBits : -((-k + (1 << kTableBits) - 1) >> kTableBits);
  const int i = k - (q << kTableBits);  // 0 <= i < 64
  *out = dd_ldexp(dd_mul(c.two[static_cast<std::size_t>(i)], p), q);
  return true;
}

}  // namespace osvs::oracle::detail
