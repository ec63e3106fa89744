// Folding one row's audit into its configuration's result. Rows are audited on several threads and
// merged as they finish, so the fold must not depend on the order: ties go to the lower row index
// and the kept violation texts are those of the lowest rows.
#pragma once

#include <cstdint>

#include "osvs/audit/config_audit.h"
#include "osvs/audit/row_audit.h"

namespace osvs::audit {

/// Explanations of violating rows kept per configuration (the lowest row indices).
inline constexpr std::size_t kKeptViolations = 5;

/// Folds row `row`'s audit `a` into `r` (every field but ulp statistics, elements, laws, seconds).
/// The result is the same for every order in which a configuration's rows are merged.
void merge_row(ConfigResult& r, const RowAudit& a, std::int64_t row);

}  // namespace osvs::audit
