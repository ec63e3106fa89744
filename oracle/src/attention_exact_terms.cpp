// Exact MPFR pieces of the attention references (attention_exact_terms.h).
#include "attention_exact_terms.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace osvs::oracle::detail {

void require_exact(int ternary, const char* what) {
  if (ternary != 0)
    throw std::logic_error(std::string("attention reference: inexact ") + what +
                           " (the exactness argument in attention_exact_terms.h is broken)");
}

MpValue exact_dot(const float* a, const float* b, int n, double scale, bool absolute) {
  MpValue acc(kExactDotBits), product(kExactDotBits);
  mpfr_set_zero(acc.get(), 1);
  for (int c = 0; c < n; ++c) {
    require_exact(mpfr_set_flt(product.get(), a[c], MPFR_RNDN), "dot factor");
    require_exact(mpfr_mul_d(product.get(), product.get(), b[c], MPFR_RNDN), "dot product");
    if (absolute) mpfr_abs(product.get(), product.get(), MPFR_RNDN);
    require_exact(mpfr_add(acc.get(), acc.get(), product.get(), MPFR_RNDN), "dot");
  }
  require_exact(mpfr_mul_d(acc.get(), acc.get(), scale, MPFR_RNDN), "scaled dot");
  return acc;
}

int subtract_alibi_bias(mpfr_ptr x, float slope, std::int64_t distance) {
  MpValue bias(96);
  require_exact(mpfr_set_flt(bias.get(), slope, MPFR_RNDN), "slope");
  require_exact(mpfr_mul_si(bias.get(), bias.get(), static_cast<long>(distance), MPFR_RNDN),
                "ALiBi bias");
  return mpfr_sub(x, x, bias.get(), MPFR_RNDN);
}

}  // namespace osvs::oracle::detail
