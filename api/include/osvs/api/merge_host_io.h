// For merge kernels that run on the host on whole partial states (osvs's CPU model, test
// kernels): a launch's operands as AttnStates (in row order) and the result stored back into its
// outputs, each o converted from and to the launch's o type, read and written through the
// launch's o strides and lse layout (MergeProblem), so a host kernel built on them takes every
// engine shape it declares.
#pragma once

#include "osvs/api/merge_kernel.h"
#include "osvs/kernels/attention/attention_cases.h"

namespace osvs {

/// Operand a (o_a, lse_a) or b (o_b, lse_b) of a host launch.
AttnStates operand_a(const MergeProblem& p);
AttnStates operand_b(const MergeProblem& p);

/// Writes out's lse and o (rounded to the o type) into the launch's outputs.
void store_result(const MergeProblem& p, const AttnStates& out);

}  // namespace osvs
