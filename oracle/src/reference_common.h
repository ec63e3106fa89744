// Pieces shared by the fast and the MPFR reference paths.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "osvs/oracle/reference.h"
#include "osvs/oracle/ulp.h"

namespace osvs::oracle::detail {

/// Relative error of exp_gap (the first lines of the analysis in reference_fast.cpp).
inline constexpr double kExpGapRelErr = 0x1p-51;

/// e^(x - m) in double with relative error <= kExpGapRelErr for |x - m| <= 708 (below, a
/// subnormal double: absolute error 2^-1074): x - m = s + t exactly by TwoSum, e^(s + t) =
/// e^s (1 + t + ...) with |t| <= 2^-46.
inline double exp_gap(float x, float m) {
  const double a = x, b = -static_cast<double>(m);
  const double s = a + b;  // TwoSum (Knuth): s + t == a + b exactly
  const double bv = s - a;
  const double t = (a - (s - bv)) + (b - bv);
  const double e0 = std::exp(s);
  return e0 + e0 * t;
}

/// The exact row maximum of a Finite row (+0 wins over -0, like the kernels' fmaxf).
inline float row_max(const float* x, std::int64_t n) {
  float m = -INFINITY;
  for (std::int64_t j = 0; j < n; ++j)
    if (x[j] > m || (x[j] == m && !std::signbit(x[j]))) m = x[j];
  return m;
}

/// True when element x lies more than kNegligibleGap below m. The double difference has relative
/// error <= 2^-53, so "gap < -128" decided in double means the exact gap is < -127.99: then
/// y < e^-127.99 / 1 < 2^-184.6 (d >= 1: the maximum contributes exp(0) = 1), which rounds to 0.
inline bool negligible(float x, float m) {
  return static_cast<double>(x) - static_cast<double>(m) < -kNegligibleGap;
}

/// The elements equal to the row maximum, and what lies below it: enough to know the exact binade
/// of their output without arithmetic in the cases where arithmetic cannot decide it.
struct MaximumTies {
  std::int64_t count = 0;          ///< c: elements equal to m (-0 and +0 alike)
  bool finite_below = false;       ///< some finite element lies below m
  bool significant_below = false;  ///< ... and is not negligible (see negligible())
};

inline MaximumTies maximum_ties(const float* x, std::int64_t n, float m) {
  MaximumTies t;
  for (std::int64_t j = 0; j < n; ++j) {
    if (x[j] == m) {
      ++t.count;
    } else if (x[j] != -INFINITY) {
      t.finite_below = true;
      t.significant_below |= !negligible(x[j], m);
    }
  }
  return t;
}

/// The exact binade max(floor(log2 y_j), -126) of an element equal to the maximum, when it is
/// known without arithmetic; nullopt otherwise (then it is decided numerically, and can be: see
/// reference_mpfr.cpp). Such an element has y_j = 1 / (c + S), S = sum of e^(x_i - m) over the
/// finite elements below m.
///  * S = 0 (no finite element below m): y_j = 1/c exactly, a power of two when c is one, which
///    no interval arithmetic can place on either side of itself. floor(log2(1/c)) = -ceil(log2 c)
///    = -bit_width(c - 1) (c = 1 gives 0; 2^(B-1) < c <= 2^B gives B).
///  * 0 < S <= 1, here because every element below m is negligible (S < n 2^-184.6): then
///    1/(c+1) <= y_j < 1/c, and with B = bit_width(c), 2^(B-1) <= c < c + 1 <= 2^B, so
///    2^-B <= y_j < 2^-(B-1): binade -B. The reference's d leaves those elements out, so its y_j
///    is 1/c, on the wrong side of the power of two when c is a power of two (for c = 1, 1.0
///    against y_j = 1 - tiny).
inline std::optional<int> binade_of_maximum(const MaximumTies& t) {
  const auto c = static_cast<std::uint64_t>(t.count);
  if (!t.finite_below) return -static_cast<int>(std::bit_width(c - 1));
  if (!t.significant_below) return -static_cast<int>(std::bit_width(c));
  return std::nullopt;
}

/// The binade of y_j known without arithmetic: binade_of_maximum for an element equal to m.
inline std::optional<int> known_binade(float xj, float m, const std::optional<int>& max_binade) {
  return xj == m ? max_binade : std::nullopt;
}

/// Binade of the outputs that are 0 or below 2^-184 (masked and negligible elements): the
/// subnormal binade, whose ulp is 2^-149.
inline constexpr int kLowestBinade = -126;

/// Moves y (a double approximation of a real in binade b) into that binade: onto 2^b when it fell
/// below, onto the largest double below 2^(b+1) when it rose to or above. The exact value lies in
/// [2^b, 2^(b+1)) (b = kLowestBinade: [0, 2^-125)), so the move never takes y further from it,
/// except by at most one double ulp (2^-52 relative) when the exact value lies above that largest
/// double: the accuracy kReferenceRelErr of y is kept.
/// The bounds are read off the bits (b + 1 <= 1023 for every binade of an output y <= 1): 2^(b+1)
/// is a positive normal double, and the double just below it (std::nextafter towards 0) is the
/// one whose bits are one less.
inline double into_binade(double y, int b) {
  const double low = b > kLowestBinade ? exact_pow2(b) : 0.0;
  const double high =
      std::bit_cast<double>(std::bit_cast<std::uint64_t>(exact_pow2(b + 1)) - std::uint64_t{1});
  return y < low ? low : (y > high ? high : y);
}

/// Moves every y[j] of a Finite row into its decided binade y_binade[j] (into_binade).
inline void place_in_binades(RowReference& r) {
  for (std::size_t j = 0; j < r.y.size(); ++j) r.y[j] = into_binade(r.y[j], r.y_binade[j]);
}

/// A reference for a row that is not Finite: explicit NaN / identity outcomes, never arithmetic.
inline RowReference special_reference(RowKind kind, std::int64_t n) {
  RowReference r;
  r.kind = kind;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (kind) {
    case RowKind::NaN:
    case RowKind::PosInf:
      r.m = std::numeric_limits<float>::quiet_NaN();
      r.d = r.lse = nan;
      r.y.assign(static_cast<std::size_t>(n), nan);
      r.y_rounded.assign(static_cast<std::size_t>(n), std::numeric_limits<float>::quiet_NaN());
      r.y_binade.assign(static_cast<std::size_t>(n), 0);
      break;
    case RowKind::AllMasked:
    case RowKind::Empty:  // the identity state (-inf, 0); outputs are the kernel's convention
      r.m = -INFINITY;
      r.d = 0;
      r.lse = -INFINITY;
      r.y.assign(static_cast<std::size_t>(n), nan);
      r.y_rounded.assign(static_cast<std::size_t>(n), std::numeric_limits<float>::quiet_NaN());
      r.y_binade.assign(static_cast<std::size_t>(n), 0);
      break;
    case RowKind::Finite:
      break;
  }
  return r;
}

}  // namespace osvs::oracle::detail
