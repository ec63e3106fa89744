// The softmax backward mutants' policies: each is BackwardAsWritten
// (kernels/include/osvs/kernels/softmax_backward.h) with one step changed, a bug a softmax or
// log-softmax backward kernel can ship. The reference kernel's own templates instantiate them
// (api/builtin/builtin_softmax_backward.h); api/tests/softmax_backward_mutants_test.cpp holds
// each to the row-wise laws, declared as its original is.
#pragma once

#include <cstdint>

#include "osvs/kernels/softmax_backward.h"

namespace osvs::mutation {

/// The row term dropped: dx = y dy.
struct RowTermDropped : BackwardAsWritten {
  static double softmax_row_term(const float*, const float*, std::int64_t) { return 0; }
};

/// The row term summed over dy only: s = sum_j dy_j.
struct RowTermOverDyOnly : BackwardAsWritten {
  static double softmax_row_term(const float*, const float* dy, std::int64_t n) {
    return log_softmax_row_term(dy, n);
  }
};

/// The sign flipped: dx = y (s - dy).
struct SignFlipped : BackwardAsWritten {
  static double softmax_dx(float y, float dy, double s) {
    return -BackwardAsWritten::softmax_dx(y, dy, s);
  }
};

/// Log-softmax backward reading its input z as the probabilities: dx = dy - z S.
struct LogWeightIsInput : BackwardAsWritten {
  static double log_softmax_weight(float z) { return z; }
};

/// The row term accumulated in binary32 (products rounded, then the sum): within a binary32
/// kernel's contract, not within the binary64 reference's.
struct RowTermInFloat : BackwardAsWritten {
  static double softmax_row_term(const float* y, const float* dy, std::int64_t n) {
    float s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += y[j] * dy[j];
    return s;
  }
};

/// Log-softmax backward's row term S = sum_j dy_j accumulated in binary32: within a binary32
/// kernel's contract, not within the binary64 reference's.
struct LogRowTermInFloat : BackwardAsWritten {
  static double log_softmax_row_term(const float* dy, std::int64_t n) {
    float s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += dy[j];
    return s;
  }
};

/// The row term divided by the row's mass sum_j y_j (renormalising y): 0 / 0 on a masked row.
struct RowTermRenormalised : BackwardAsWritten {
  static double softmax_row_term(const float* y, const float* dy, std::int64_t n) {
    double mass = 0;
    for (std::int64_t j = 0; j < n; ++j) mass += y[j];
    return BackwardAsWritten::softmax_row_term(y, dy, n) / mass;
  }
};

/// NaN terms skipped in the row term: a NaN dy poisons only its own dx.
struct RowTermSkipsNan : BackwardAsWritten {
  static double softmax_row_term(const float* y, const float* dy, std::int64_t n) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const double t = static_cast<double>(y[j]) * static_cast<double>(dy[j]);
      if (t == t) s += t;
    }
    return s;
  }
};

}  // namespace osvs::mutation
