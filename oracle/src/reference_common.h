// Pieces shared by the fast and the MPFR reference paths.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "osvs/oracle/reference.h"

namespace osvs::oracle::detail {

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
      break;
    case RowKind::AllMasked:
    case RowKind::Empty:  // the identity state (-inf, 0); outputs are the kernel's convention
      r.m = -INFINITY;
      r.d = 0;
      r.lse = -INFINITY;
      r.y.assign(static_cast<std::size_t>(n), nan);
      r.y_rounded.assign(static_cast<std::size_t>(n), std::numeric_limits<float>::quiet_NaN());
      break;
    case RowKind::Finite:
      break;
  }
  return r;
}

}  // namespace osvs::oracle::detail
