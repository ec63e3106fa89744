// The CPU model of the fast kernel: fast_schedule.h's order replayed on the host in floats.
#pragma once

#include "osvs/kernels/cases.h"

namespace osvs {

/// Outputs and row states of the fast kernel for a validated batch (its mutations included).
void fast_model_rows(const SoftmaxBatch& b, SoftmaxResult& r);

}  // namespace osvs
