// A kernel's accuracy contract evaluated on one row: the tolerance of each element, in ulps of
// the kernel's output type (the reference's slack included).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "declaration.h"
#include "osvs/api/row_kernel.h"

namespace osvs::api {

/// Per-element tolerance for a finite row, or nullopt when the kernel declares no contract.
/// Throws std::invalid_argument for a derived contract that the catalogue cannot evaluate.
std::optional<std::vector<double>> tolerance_ulps(const RowKernel& k, const float* row,
                                                  std::int64_t n);

/// max - min over the row's finite elements (0 for none).
double finite_range(const float* row, std::int64_t n);

}  // namespace osvs::api
