// osvs's split-KV decode kernel as an attention entry (builtin_split_decode.cpp): the loop over
// a launch's queries on an executor's split-decode kernel, and its declaration.
#pragma once

#include <memory>

#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/osvs.h"

namespace osvs::builtin {

/// Every query of p (host buffers) as one decode problem of its sequence's kept keys on
/// `executor`, its o and lse written into p's buffers.
void split_decode(AttentionExecutor& executor, const AttentionProblem& p);

/// The entry `name` on `where`, running split_decode on `executor` (the device entry's adapter
/// stages the runner's device buffers on the host for it: builtin_split_decode_device.cu).
AttentionKernel declare_split_decode(const char* name, std::shared_ptr<AttentionExecutor> executor,
                                     Where where);

}  // namespace osvs::builtin
