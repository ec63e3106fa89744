// A built-in softmax kernel's facts, header-only: what its derived bound models, how it folds,
// its exp, how often it reads x. The executors, the bounds, the validation and the audit read
// them through the kernel's SoftmaxKernelFns (softmax_kernel_fns.h), which carries its code too;
// the registry's declaration checks, which plugins carry without any kernel code, read them here
// (softmax_kernel_facts(kind)). One table: a new built-in kernel is one entry of it.
#pragma once

#include <cstddef>
#include <string_view>

#include "osvs/kernels/cases.h"

namespace osvs {

/// The order in which a kernel reduces a row to its state: what its derived bound models
/// (oracle/bounds.h, docs/semantics.md §5).
enum class ReductionOrder {
  OnlineBlock,      ///< one block a row: per-thread stride loop, warp tree, shared-memory stage,
                    ///< (m, d) folded with the batch's combine operator (block_schedule.h)
  MaxThenSumBlock,  ///< the same block order twice: a max with fmaxf, then sum exp(x - m) with +
  FastPlan,         ///< fast_plan.h's chunks held on chip, merged with the hardened combine
};

struct SoftmaxKernelFacts {
  /// The kernel's name in messages: "two_pass", "three_pass", "fast" or a mutant's name.
  const char* name = "";
  /// The order its derived bound models.
  ReductionOrder order = ReductionOrder::OnlineBlock;
  /// Whether it folds with the batch's combine operator. The 3-pass kernel does not: the
  /// combine's laws do not apply to it, and its conventions are its own (the identity state for
  /// N = 0, NaN for a fully masked row), not the operator's.
  bool folds_with_combine = true;
  /// Whether it is its combine operator's own 2-pass kernel, whose indexing the operator decides
  /// (the seed's `row * N` in int: CombineOperator::int32_two_pass_index).
  bool is_combine_two_pass = false;
  /// Whether it merges with the hardened combine only (the fast kernel).
  bool hardened_combine_only = false;
  /// Whether its plan picks its threads (fast_plan.h): the batch's block size is not used, and
  /// one block size suffices to audit it.
  bool plans_own_block = false;
  /// Whether its exp is its own on either executor (the fast kernel's FastKernelExp), so that it
  /// takes no declared exp and its bound uses its own figure.
  bool own_exp = false;
  /// How many times it reads x from memory (the bandwidth model; the fast kernel's launch info
  /// tells its own, 1 or 2).
  int x_passes = 2;
};

/// The built-in kernels' facts, in KernelKind's order.
inline constexpr SoftmaxKernelFacts kBuiltinSoftmaxKernelFacts[] = {
    {.name = "two_pass", .order = ReductionOrder::OnlineBlock, .is_combine_two_pass = true},
    {.name = "three_pass",
     .order = ReductionOrder::MaxThenSumBlock,
     .folds_with_combine = false,
     .x_passes = 3},
    {.name = "fast",
     .order = ReductionOrder::FastPlan,
     .hardened_combine_only = true,
     .plans_own_block = true,
     .own_exp = true,
     .x_passes = 1},
};

/// The facts of the built-in kernel `kind`.
constexpr const SoftmaxKernelFacts& softmax_kernel_facts(KernelKind kind) {
  return kBuiltinSoftmaxKernelFacts[static_cast<int>(kind)];
}

/// Whether entry i of the table is KernelKind i, by the name kKernelNames gives it.
constexpr bool facts_follow_kernel_kinds() {
  constexpr std::size_t n = sizeof(kKernelNames) / sizeof(kKernelNames[0]);
  if (sizeof(kBuiltinSoftmaxKernelFacts) / sizeof(kBuiltinSoftmaxKernelFacts[0]) != n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (static_cast<std::size_t>(kKernelNames[i].value) != i ||
        std::string_view(kKernelNames[i].name) != kBuiltinSoftmaxKernelFacts[i].name)
      return false;
  return true;
}
static_assert(facts_follow_kernel_kinds(), "one facts entry a KernelKind, in its order");

}  // namespace osvs
