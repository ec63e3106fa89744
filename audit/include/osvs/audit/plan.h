// The sweep plan: which configurations (kernel x combine x block x N x family) an audit runs and
// how many rows of each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/audit/families.h"
#include "osvs/audit/options.h"
#include "osvs/audit/search_budget.h"
#include "osvs/kernels/cases.h"
#include "osvs/kernels/softmax_kernel_fns.h"

namespace osvs::audit {

/// A kernel under test: the kernel and the combine operator it folds with (3-pass: none).
struct KernelUnderTest {
  KernelKind kernel;
  CombineKind combine;  ///< for the 3-pass kernel the field the executor ignores (seed)

  /// "two_pass/seed", "two_pass/hardened", "three_pass", "fast".
  std::string label() const;
  /// What the executors, bounds and audit know of the kernel (softmax_kernel_fns.h).
  const SoftmaxKernelFns& facts() const { return builtin_softmax_kernel(kernel); }
};

struct Config {
  KernelUnderTest kut;
  int block;
  std::int64_t n;
  const InputFamily* family;
  std::int64_t rows;  ///< rows audited (one batch per config)
};

struct Plan {
  std::vector<KernelUnderTest> kernels;
  std::vector<int> blocks;
  std::vector<std::int64_t> sizes;
  std::vector<const InputFamily*> families;
  std::vector<Config> configs;  ///< every combination, in run order
  std::int64_t elements = 0;    ///< sum of rows * n
  SearchBudget search;          ///< rounds (or time) given to the targeted search
};

/// Builds the plan for `opt` on a GPU (gpu = true: N up to 2^24) or the CPU model. Throws
/// std::invalid_argument for an unknown kernel, combine, family or unsupported block size.
Plan make_plan(const AuditOptions& opt, bool gpu);

}  // namespace osvs::audit
