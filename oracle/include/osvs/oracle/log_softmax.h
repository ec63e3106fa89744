// The exact log-softmax of a row: l_j = x_j - log sum_k e^(x_k), in double with a certified
// relative error (derivation in src/log_softmax_reference.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/oracle/reference.h"

namespace osvs::oracle {

/// l_j for every element of a Finite row (classify_row), relative error <= kReferenceRelErr plus
/// an absolute n 2^-1074; an element equal to -inf gives -inf exactly. Throws
/// std::invalid_argument for a row that is not Finite.
std::vector<double> log_softmax_reference(const float* x, std::int64_t n);

}  // namespace osvs::oracle
