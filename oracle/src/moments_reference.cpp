// The exact moments of a row (osvs/oracle/moments_reference.h).
#include "osvs/oracle/moments_reference.h"

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>

namespace osvs::oracle {
namespace {

namespace bmp = boost::multiprecision;
// 309 decimal digits: more than 1024 bits.
using Real = bmp::number<bmp::mpfr_float_backend<309>, bmp::et_off>;

}  // namespace

Moments moments_reference(std::span<const float> row) {
  Moments m;
  m.n = static_cast<std::int64_t>(row.size());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  bool finite = true;
  for (float x : row) finite = finite && std::isfinite(x);
  if (m.n == 0 || !finite) {
    m.mean = m.var = nan;
    return m;
  }
  Real sum = 0;
  for (float x : row) sum += Real(x);
  const Real mean = sum / Real(m.n);
  Real m2 = 0;
  for (float x : row) {
    const Real d = Real(x) - mean;
    m2 += d * d;
  }
  m.mean = mean.convert_to<double>();
  m.var = (m2 / Real(m.n)).convert_to<double>();
  return m;
}

}  // namespace osvs::oracle
