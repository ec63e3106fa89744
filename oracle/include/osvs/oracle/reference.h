// The exact reference for one row: its state, log-sum-exp and correctly rounded softmax.
//
// Semantics (docs/semantics.md §3; the oracle owns them): NaN anywhere -> kind NaN
// (every output NaN); +inf anywhere (no NaN) -> kind PosInf (every output NaN, PyTorch's
// convention); all elements -inf -> kind AllMasked (state = identity; each kernel documents its
// outputs: NaN or 0); n == 0 -> kind Empty (no outputs, identity state); otherwise Finite.
//
// Accuracy of the double fields (Finite rows), derived in src/reference_fast.cpp and
// src/reference_mpfr.cpp: d and each y[j] carry a relative error of at most kReferenceRelErr,
// except that elements with x_j - m < -kNegligibleGap (y_j < 2^-184, which rounds to float 0) may
// carry an absolute error up to 2^-180 instead; lse = m + log(d) is within kReferenceRelErr * (1 +
// |m| + |log d|). These hold for rows of at most kMaxReferenceRow elements; longer rows are
// refused. y_rounded is exact: the float nearest to the exact y_j (ties to even), subnormals and 0
// included. y_binade is exact too: the binade of the exact y_j, whose ulp the metric uses (ulp.h);
// y[j] lies in that binade, so that ulp_of(y[j]) is that ulp even where the exact y_j sits next to
// a power of two (moving y[j] there costs at most one double ulp, inside kReferenceRelErr).
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/index_loop.h"

namespace osvs::oracle {

enum class RowKind { Finite, NaN, PosInf, AllMasked, Empty };

const char* to_string(RowKind k);

/// Relative error of the reference's double values d and y (see the derivations in src/).
inline constexpr double kReferenceRelErr = 0x1p-48;

/// Longest row the fast path certifies kReferenceRelErr for (its summation term grows as n^2).
inline constexpr std::int64_t kMaxReferenceRow = std::int64_t{1} << 28;

/// Elements with x_j - m below -kNegligibleGap have y_j < e^-128 < 2^-184: they round to float 0
/// and are left out of d (their sum is below n * 2^-184, inside kReferenceRelErr for n < 2^100).
inline constexpr double kNegligibleGap = 128.0;

struct RowReference {
  RowKind kind = RowKind::Empty;
  float m = 0;                   ///< exact row maximum (Finite rows; -inf for AllMasked)
  double d = 0;                  ///< sum exp(x - m), relative error <= kReferenceRelErr
  double lse = 0;                ///< m + log(d) (see the accuracy note above)
  std::vector<double> y;         ///< exp(x_j - m) / d, relative error <= kReferenceRelErr
  std::vector<float> y_rounded;  ///< each output correctly rounded to float (round to nearest even)
  /// max(floor(log2 y_j), -126) of the exact y_j (Finite rows; 0 elsewhere): decided rigorously,
  /// never read off the double y[j] (see the note above and src/reference_common.h).
  std::vector<int> y_binade;
  /// elements whose rounding or binade the fast path's double arithmetic left to the slower rungs
  /// (double-double, then MPFR)
  std::int64_t mpfr_fallbacks = 0;
};

/// Classifies a row by the special-value semantics above (n >= 0; x may be null when n == 0).
RowKind classify_row(const float* x, std::int64_t n);

/// Fast path with certified error and MPFR fallback when the rounding is undecided. `loops` may
/// run the per-element work of a long row on several threads: the same reference, bit for bit.
RowReference reference_row(const float* x, std::int64_t n, const IndexLoop* loops = nullptr);

/// reference_row into `out`, whose vectors' storage is reused: a caller that judges many rows
/// allocates (and faults in) the storage once. The same reference, bit for bit.
void reference_row_into(RowReference& out, const float* x, std::int64_t n,
                        const IndexLoop* loops = nullptr);

/// MPFR-only path (slow; used to cross-check the fast path).
RowReference reference_row_mpfr(const float* x, std::int64_t n);

/// MPFR path at one working precision (digits10 one of 40, 80, 160, 320, 640), no Ziv retry:
/// elements whose rounding or binade is not decided at that precision are reported in *undecided
/// (used by tests to check correct rounding against a much higher precision). Throws
/// std::invalid_argument for bad input.
RowReference reference_row_mpfr_at(const float* x, std::int64_t n, int digits10,
                                   std::vector<std::int64_t>* undecided);

}  // namespace osvs::oracle
