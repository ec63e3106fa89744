// The exact log-softmax (include/osvs/oracle/log_softmax.h).
//
// log-softmax: l_j = (x_j - m) - L with L = log(sum_k e^(x_k - m)) = log1p((c - 1) + S), where c
// counts the elements equal to the maximum m and S sums e^(x_k - m) over x_k < m. Both parts are
// <= 0 and >= 0, so l_j = -(|x_j - m| + L) is a sum of two non-negative terms: no cancellation,
// and the relative errors combine (u_d = 2^-53):
//   e_k = e^(x_k - m)     TwoSum + exp + correction (reference_common.h)  rel 2^-51
//                         (a gap below -708 leaves a subnormal double: absolute 2^-1074)
//   S = Sum2(e_k)         Ogita-Rump-Oishi, positive terms, n <= 2^28                rel 2^-50
//   t = (c - 1) + S       exact when c = 1, else one rounding                        rel 2^-49.5
//   L = log1p(t)          glibc log1p < 1 ulp; condition t / ((1 + t) log1p t) <= 1  rel 2^-48.9
//   a = m - x_j           one rounding                                               rel 2^-53
//   l = -(a + L)          one rounding of a sum of non-negative terms                rel 2^-48.5
// so |l_hat - l| <= kReferenceRelErr |l| + n 2^-1074, the absolute part below every type's smallest
// ulp.
#include "osvs/oracle/log_softmax.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "reference_common.h"

namespace osvs::oracle {

std::vector<double> log_softmax_reference(const float* x, std::int64_t n) {
  if (classify_row(x, n) != RowKind::Finite)
    throw std::invalid_argument("log_softmax_reference: the row is not finite");
  const float m = detail::row_max(x, n);
  double c = 0, s = 0, comp = 0;  // Sum2 (Ogita, Rump & Oishi): s + comp
  for (std::int64_t k = 0; k < n; ++k) {
    if (x[k] == m) {
      c += 1;
      continue;
    }
    if (x[k] == -std::numeric_limits<float>::infinity()) continue;
    const double v = detail::exp_gap(x[k], m);
    const double sn = s + v, z = sn - s;
    comp += (s - (sn - z)) + (v - z);
    s = sn;
  }
  const double L = std::log1p((c - 1) + (s + comp));
  std::vector<double> out(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    out[static_cast<std::size_t>(j)] =
        x[j] == -std::numeric_limits<float>::infinity()
            ? -std::numeric_limits<double>::infinity()
            : -((static_cast<double>(m) - static_cast<double>(x[j])) + L);
  return out;
}

}  // namespace osvs::oracle
