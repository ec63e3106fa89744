// Checks of a declaration that need no oracle (the registry runs them at registration).
#pragma once

#include <string>
#include <vector>

#include "osvs/api/row_kernel.h"

namespace osvs::api {

/// Why `name` cannot name a kernel (empty, or characters other than letters, digits, '_', '-'
/// and '.', which regression folders and test names are made of), or "".
std::string name_problem(const std::string& name);

/// Why a derived contract cannot apply to k (a shape not in the catalogue, not f32 softmax), or
/// "" (also for kernels whose contract is not derived).
std::string derived_contract_problem(const RowKernel& k);

/// Why the declared layouts cannot describe a kernel's paths (a nameless one, `from` outside
/// 1 ... max_cols or not ascending, a negative piece), or "".
std::string layout_problem(const Traits& t);

/// Why `who` cannot declare `types` as its value types (an index type, i32 or i64, which only
/// the row-wise kind's index arrays take, or an fp8 type, which only an attention kernel's K/V
/// take), or "".
std::string value_types_problem(const std::string& who, const std::vector<DType>& types);

}  // namespace osvs::api
