// The names of the row kernels' laws, in the order row_laws() runs them: what a declaration's
// skip() and known_defect() may name. The registry checks every name a row kernel's declaration
// gives against this list (an unknown one is a registration error that lists these), and
// row_laws() checks that it defines exactly these laws, so the two cannot drift.
#pragma once

#include <string_view>

namespace osvs {

inline constexpr std::string_view kRowLawNames[] = {"accuracy",         "sum_to_one", "determinism",
                                                    "batch_invariance", "strided",    "permutation",
                                                    "shift_invariance", "large_batch"};

}  // namespace osvs
