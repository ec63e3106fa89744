// The double-double pieces of attention's fast paths (attention_terms_dd.h).
#include "attention_terms_dd.h"

#include <mpfr.h>

#include <array>
#include <cmath>
#include <cstdlib>

#include "exp_double_double.h"
#include "mpfr_thread_caches.h"

namespace osvs::oracle::detail {
namespace {

std::array<DoubleDouble, 5> make_exp_minus_128() {
  free_mpfr_caches_at_thread_exit();
  std::array<DoubleDouble, 5> e{};
  mpfr_t v, scratch;
  mpfr_init2(v, 400);
  mpfr_init2(scratch, 400);
  for (int j = 0; j < 5; ++j) {
    mpfr_set_si(v, -128 * j, MPFR_RNDN);
    mpfr_exp(v, v, MPFR_RNDN);
    e[static_cast<std::size_t>(j)] = to_double_double(v, scratch);
  }
  mpfr_clear(v);
  mpfr_clear(scratch);
  return e;
}

}  // namespace

DoubleDouble exp_minus_128(int j) {
  static const std::array<DoubleDouble, 5> e = make_exp_minus_128();
  return e[static_cast<std::size_t>(j)];
}

bool weight(DoubleDouble t, DoubleDouble* out) {
  if (t.h >= -128) return exp_dd(t, out);
  const int j = static_cast<int>(-t.h / 128);  // 1..4
  const DoubleDouble a = two_sum(t.h, 128.0 * j);
  DoubleDouble e;
  if (!exp_dd(two_sum(a.h, a.l + t.l), &e)) return false;
  *out = dd_mul(e, exp_minus_128(j));
  return true;
}

Score score_of(const float* q, const float* k, int dim, double scale) {
  constexpr int kLanes = 4;  // independent cascades (c mod 4): latency, not a chain of dim sums
  constexpr double kU = kDdU;
  double hi[kLanes] = {}, lo[kLanes] = {}, p_abs[kLanes] = {};
  int c = 0;
  for (; c + kLanes <= dim; c += kLanes)
    for (int r = 0; r < kLanes; ++r) {
      const double p = static_cast<double>(q[c + r]) * static_cast<double>(k[c + r]);  // exact
      const DoubleDouble s = two_sum(hi[r], p);
      hi[r] = s.h;
      lo[r] += s.l;
      p_abs[r] += std::fabs(p);
    }
  for (; c < dim; ++c) {
    const double p = static_cast<double>(q[c]) * static_cast<double>(k[c]);
    const DoubleDouble s = two_sum(hi[0], p);
    hi[0] = s.h;
    lo[0] += s.l;
    p_abs[0] += std::fabs(p);
  }
  double h = hi[0], l = lo[0], a = p_abs[0];
  for (int r = 1; r < kLanes; ++r) {
    const DoubleDouble s = two_sum(h, hi[r]);
    h = s.h;
    l += s.l + lo[r];
    a += p_abs[r];
  }
  const DoubleDouble s = dd_mul(two_sum(h, l), scale);
  const double d = dim + kLanes;
  const double delta = 1.0201 * d * d * kU * kU * a * std::fabs(scale) +
                       8.1 * kU * kU * std::fabs(s.h) + d * 0x1p-1074 + 0x1p-1000;
  return {s, delta};
}

void add_alibi_bias(Score& x, float slope, std::int64_t distance) {
  const DoubleDouble b = two_prod(-static_cast<double>(slope), static_cast<double>(distance));
  x.delta += 3.06 * kDdU * kDdU * (std::fabs(x.s.h) + std::fabs(b.h));  // (b exact: 24 + 53 bits)
  x.s = dd_add(x.s, b);
}

}  // namespace osvs::oracle::detail
