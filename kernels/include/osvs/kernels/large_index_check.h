// The check behind the large-index test and mutation/'s int32_index mutant: a batch of
// M x N >= 2^31 floats whose last rows must equal, bit for bit, the same rows run alone.
#pragma once

#include <string>

#include "osvs/kernels/executor.h"

namespace osvs {

struct LargeIndexOutcome {
  bool ok = false;
  std::string explanation;
};

/// Runs `kernel` with the hardened combine (the hardened 2-pass kernel, or the fast kernel) on a
/// 65537 x 32768 batch (2^31 + 2^15 elements) whose rows differ, and compares rows 0, 65535 and
/// 65536 with the same rows alone; the kernel is the one `executor` runs for it
/// (Executor::softmax_kernel: a mutant in a mutant_executor). A launch failure counts as not ok
/// (with the CUDA error in the explanation).
LargeIndexOutcome check_large_index(Executor& executor, KernelKind kernel = KernelKind::TwoPass);

}  // namespace osvs
