// What each kernel documents for the rows where the arithmetic has no answer of its own: the
// properties and the audit hold the kernels (and their mutants, through original_of) to this.
#pragma once

#include <limits>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/softmax_kernel_fns.h"

namespace osvs {

/// A fully masked row's outputs: the 3-pass and the seed 2-pass kernels give NaN (0/0, like
/// PyTorch softmax); the hardened 2-pass kernel and the fast kernel (hardened) give 0
/// (flash-attention's convention). A 2-pass kernel around any operator: what the operator (its
/// original, for a mutant) declares.
inline float documented_masked_output(KernelKind kernel, CombineKind combine) {
  const bool zero = builtin_softmax_kernel(kernel).folds_with_combine &&
                    original_of(combine).op().masked_row_zero;
  return zero ? 0.0f : std::numeric_limits<float>::quiet_NaN();
}

/// The state reported for N = 0: a 2-pass kernel's initial state ((-inf, 0) hardened,
/// (-FLT_MAX, 0) seed; a mutant's original's); the 3-pass kernel's (max of nothing, sum of
/// nothing) = (-inf, 0); the fast kernel's (hardened) (-inf, 0).
inline State documented_empty_state(KernelKind kernel, CombineKind combine) {
  if (!builtin_softmax_kernel(kernel).folds_with_combine) return identity_state();
  return original_of(combine).op().host.initial();
}

}  // namespace osvs
