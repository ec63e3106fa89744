// A matcher in the style of LLVM libc's MPFR matcher: checks kernel outputs against the reference
// within per-element tolerances and explains a mismatch with hex inputs, reference, observed value
// and distance in ulps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/oracle/reference.h"

namespace osvs::oracle {

struct MatchResult {
  bool ok = true;
  double worst_ulp = 0;           ///< largest ulp distance seen
  std::int64_t worst_index = -1;  ///< its element
  double worst_ratio = 0;         ///< largest distance / tolerance (tightness)
  std::string explanation;        ///< empty when ok
};

/// Every y_hat[j] within tol_ulp[j] ulps of ref.y[j] (NaN rows: every output NaN).
MatchResult match_softmax(const float* x, std::int64_t n, const float* y_hat,
                          const RowReference& ref, const std::vector<double>& tol_ulp);

}  // namespace osvs::oracle
