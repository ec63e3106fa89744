// The judge of argmax's and topk's outputs (rowwise_ops.h's selecting ops): exact under the rank
// order of oracle/selection_reference.h and the kernel's declared tie rule and order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "osvs/api/rowwise_kernel.h"
#include "osvs/properties/verdict.h"  // Finding

namespace osvs {

/// One row's outputs of a selecting op: topk's values (null for argmax) and indices, width k.
struct SelectionRow {
  const float* x = nullptr;  ///< the row, n elements
  std::int64_t n = 0;
  std::int64_t k = 1;
  const float* values = nullptr;
  const float* indices = nullptr;
};

/// The first thing wrong with the row's selection, as a finding (its class and a readable
/// explanation, `where` prefixed), or nothing. Checked in this order: an index not an integer
/// in [0, n) ("index outside the row"), an index repeated, a value other than the element its
/// index names (NaN matches any NaN), the selected elements' values other than the k largest's
/// ("not the largest"), under Ties::Lowest other indices than the lowest among equal elements
/// ("not the lowest index of a tie"), under sorted an order other than descending ("not in
/// descending order"; with Ties::Lowest, equal elements by ascending index).
std::optional<Finding> selection_problem(const RowwiseKernel& k, const SelectionRow& row,
                                         const std::string& where);

}  // namespace osvs
