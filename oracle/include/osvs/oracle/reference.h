// The exact reference for one row: its state, log-sum-exp and correctly rounded softmax.
//
// Semantics (../DESIGN.md §3, the oracle owns them): NaN anywhere -> kind NaN (every output NaN);
// +inf anywhere (no NaN) -> kind PosInf (every output NaN, PyTorch's convention); all elements
// -inf -> kind AllMasked (state = identity; each kernel documents its outputs: NaN or 0);
// n == 0 -> kind Empty (no outputs, identity state); otherwise Finite.
#pragma once

#include <cstdint>
#include <vector>

namespace osvs::oracle {

enum class RowKind { Finite, NaN, PosInf, AllMasked, Empty };

const char* to_string(RowKind k);

struct RowReference {
  RowKind kind = RowKind::Empty;
  float m = 0;                   ///< exact row maximum (Finite rows)
  double d = 0;                  ///< sum exp(x - m), relative error <= 2^-50 (Finite rows)
  double lse = 0;                ///< m + log(d), relative error <= 2^-50 (Finite rows)
  std::vector<double> y;         ///< exp(x_j - m) / d, relative error <= 2^-50 (or exactly 0)
  std::vector<float> y_rounded;  ///< each output correctly rounded to float (round to nearest even)
};

/// Fast path with certified error and MPFR fallback when the rounding is undecided.
RowReference reference_row(const float* x, std::int64_t n);

/// MPFR-only path (slow; used to cross-check the fast path).
RowReference reference_row_mpfr(const float* x, std::int64_t n);

}  // namespace osvs::oracle
