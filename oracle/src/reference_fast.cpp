// The fast reference path: double arithmetic with a certified error bound, and for the elements
// whose float rounding that bound cannot decide, double-double arithmetic (double_double_decide.h)
// and then MPFR for what that cannot decide either.
//
// Error analysis (u_d = 2^-53; "rel" = relative error w.r.t. the exact real; running totals on the
// right). Elements with x_j - m < -kNegligibleGap are left out of d and rounded to 0 (see
// reference_common.h); for the others |x_j - m| <= 128.
//   s + t = x_j - m        TwoSum, exact; |t| <= u_d |s| <= 2^-46          rel 0
//   e0 = exp(s)            glibc exp, < 1 ulp, normal result (>= e^-129)   rel 2^-52
//   e  = e0 + e0 * t       e^(s+t) = e^s (1 + t + th t^2), t^2 <= 2^-92;   rel 2^-52 + 2^-53
//                          product 2^-99, sum rounding 2^-53               + 2^-90 <= 2^-51 = eps_e
//   d  = Sum2(e_i)         Ogita-Rump-Oishi, Prop. 4.5, positive terms:    rel eps_e + u_d
//                          |d - S| <= u_d S + gamma_{n-1}^2 S              + gamma^2 + n 2^-184
//                          plus the left-out terms, < n 2^-184.6 of d >= 1          = eps_d
//   y  = e_j / d           one rounding                                    rel (1+eps_e)(1+u_d)
//                                                                              / (1-eps_d) - 1
// For n <= 2^28 this gives eps_y <= 2^-49.3 < kReferenceRelErr. The rounding of y_j to float is
// decided when both ends of [y (1 - 2 eps_y), y (1 + 2 eps_y)] round to the same float: the
// doubled eps_y covers the rounding of the two products (2^-53 each) and the conversion
// y_exact in [y / (1 + eps_y), y / (1 - eps_y)]; double -> float conversion is correctly rounded
// (IEEE 754, subnormals included) and monotone, so every real in the interval rounds alike.
// The binade of y_exact is decided the same way: when both ends lie in one binade, so does every
// real between them. An interval that holds a power of two goes to MPFR, except for an element
// equal to the maximum whose binade is known exactly (binade_of_maximum in reference_common.h:
// there y_exact can be the power of two itself, or lie just below it while y rounds onto it).
#include <cmath>
#include <optional>
#include <vector>

#include "double_double_decide.h"
#include "mpfr_decide.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/ulp.h"
#include "reference_common.h"

namespace osvs::oracle {
namespace {

constexpr double kUd = 0x1p-53;
constexpr double kEpsExp = detail::kExpGapRelErr;  // eps_e above

/// gamma_k = k u_d / (1 - k u_d) (Higham, ASNA §3.1), for k u_d < 1.
double gamma_d(double k) {
  return k * kUd / (1 - k * kUd);
}

/// Sum2 of Ogita, Rump & Oishi (SIAM J. Sci. Comput. 2005): cascaded TwoSum.
struct Sum2 {
  double s = 0, c = 0;
  void add(double v) {
    const double sn = s + v;
    const double z = sn - s;
    c += (s - (sn - z)) + (v - z);
    s = sn;
  }
  double value() const { return s + c; }
};

/// The binade every real of [lo, hi] (0 < lo <= hi) lies in, or nullopt when they straddle one
/// power of two (or more).
std::optional<int> common_binade(double lo, double hi) {
  const int b = binade_of(lo);
  return b == binade_of(hi) ? std::optional<int>(b) : std::nullopt;
}

}  // namespace

RowReference reference_row(const float* x, std::int64_t n, const IndexLoop* loops) {
  RowReference r;
  reference_row_into(r, x, n, loops);
  return r;
}

void reference_row_into(RowReference& r, const float* x, std::int64_t n, const IndexLoop* loops) {
  const RowKind kind = classify_row(x, n);
  if (kind != RowKind::Finite) {
    r = detail::special_reference(kind, n);
    return;
  }
  r.kind = kind;
  r.m = detail::row_max(x, n);
  const auto size = static_cast<std::size_t>(n);
  // Every y[j] and y_rounded[j] is written below (negligible, decided or left to MPFR): the old
  // contents of reused storage never show through.
  r.y.resize(size);
  r.y_rounded.resize(size);
  r.y_binade.assign(size, detail::kLowestBinade);
  // A masked element (-inf) is exactly 0 (TwoSum of -inf would give NaN); negligible ones keep
  // their tiny exact value but are left out of d (reference_common.h).
  run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t j = begin; j < end; ++j)
      r.y[static_cast<std::size_t>(j)] = x[j] == -INFINITY ? 0.0 : detail::exp_gap(x[j], r.m);
  });
  Sum2 sum;  // in element order, whoever computed the terms: the analysis above is for this order
  for (std::size_t j = 0; j < size; ++j)
    if (!detail::negligible(x[j], r.m)) sum.add(r.y[j]);
  r.d = sum.value();
  const double nd = static_cast<double>(n);
  const double g = gamma_d(nd);
  const double eps_d = (1 + kEpsExp) * (1 + kUd + g * g) - 1 + nd * 0x1p-184;
  const double eps_y = (1 + kEpsExp) * (1 + kUd) / (1 - eps_d) - 1;
  const double lo_factor = 1 - 2 * eps_y, hi_factor = 1 + 2 * eps_y;
  r.lse = static_cast<double>(r.m) + std::log(r.d);
  const std::optional<int> max_binade = detail::binade_of_maximum(detail::maximum_ties(x, n, r.m));
  std::vector<std::vector<std::int64_t>> undecided_in(
      static_cast<std::size_t>(element_chunk_count(n)));
  run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t>& undecided =
        undecided_in[static_cast<std::size_t>(begin / kElementChunk)];
    for (std::int64_t i = begin; i < end; ++i) {
      const auto j = static_cast<std::size_t>(i);
      r.y[j] /= r.d;
      if (detail::negligible(x[j], r.m)) {
        r.y_rounded[j] = 0.0f;  // y_j < 2^-184.6 (reference_common.h); binade kLowestBinade
        continue;
      }
      const double lo = r.y[j] * lo_factor, hi = r.y[j] * hi_factor;
      const float rounded_lo = static_cast<float>(lo), rounded_hi = static_cast<float>(hi);
      std::optional<int> binade = detail::known_binade(x[j], r.m, max_binade);
      if (!binade) binade = common_binade(lo, hi);
      if (rounded_lo == rounded_hi && binade) {
        r.y_rounded[j] = rounded_lo;
        r.y_binade[j] = *binade;
      } else {
        undecided.push_back(i);
      }
    }
  });
  std::vector<std::int64_t> undecided;  // ascending, as the chunks are
  for (const auto& u : undecided_in) undecided.insert(undecided.end(), u.begin(), u.end());
  // The undecided elements go to double-double first, then what is left to MPFR: either decides
  // the exact rounding and binade, so the reference is the same whichever decides.
  const std::vector<std::int64_t> left = detail::double_double_decide(
      x, n, r.m, undecided, max_binade, r.y_rounded, r.y_binade, loops);
  if (!left.empty()) detail::mpfr_decide(x, n, r.m, left, r.y_rounded, r.y_binade, 0, loops);
  r.mpfr_fallbacks = static_cast<std::int64_t>(undecided.size());
  run_element_chunks(loops, n, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const auto j = static_cast<std::size_t>(i);
      r.y[j] = detail::into_binade(r.y[j], r.y_binade[j]);
    }
  });
}

}  // namespace osvs::oracle
