// Running a registered merge kernel on two partial states and checking what it did to memory,
// as the row runner (runner.h) does for row kernels: the operands staged in the kernel's o type,
// o and lse outputs surrounded by guard zones and filled with a signalling-NaN sentinel, the
// launch on the host or on a stream of its own, then the checks: inputs unchanged, guards
// intact, every lse and o component written, no CUDA error left. Any breach, an exception or a
// CUDA error is a KernelFailure naming the kernel and what it did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "osvs/api/merge_kernel.h"
#include "osvs/api/runner.h"  // KernelFailure, DeviceUnavailable
#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/properties/attention/attention_laws.h"  // MergeShape

namespace osvs {

/// out = k(a, b) with every lse in `base`, in the kernel's own empty representation (no
/// translation: merge_laws.h's adapter does that). Throws KernelFailure (above),
/// std::invalid_argument for operands of different shapes, an o type the kernel does not declare
/// or o values not exact in it, and DeviceUnavailable for a device kernel where none is usable.
/// `shape` says how the rows are laid out for the kernel (MergeShape: tokens x heads, padding);
/// its padding is used only for a kernel that declares o_strided, and the kernel must leave the
/// output's padding untouched. Throws std::invalid_argument, too, for heads that do not divide
/// the rows and a head_dim the kernel does not take.
AttnStates run_merge_kernel(const MergeKernel& k, const AttnStates& a, const AttnStates& b,
                            LseBase base, const MergeShape& shape = {});

/// Row `row` of an operand of a generated launch: its lse and its head_dim o components, each
/// exact in the launch's o type. Called from several threads at once.
using MergeRowValues = std::function<void(std::int64_t row, float* lse, float* o)>;

/// A launch too large to stage as AttnStates (the large law, merge_large_law.h): rows x head_dim
/// o components of type o_type per operand, laid out by `shape` as run_merge_kernel lays them
/// out, the operands' rows given by a and b.
struct GeneratedMerge {
  std::int64_t rows = 0;
  int head_dim = 1;
  DType o_type = DType::F32;
  LseBase base = LseBase::E;
  MergeShape shape;
  MergeRowValues a, b;
};

/// The bytes of the images of a generated launch on k (three o arrays, three lse ones and the
/// outputs' guard zones): the host memory it takes, and for a device kernel its device memory.
std::size_t image_bytes(const MergeKernel& k, const GeneratedMerge& g);

/// Rows `judged` of out = k(a, b), in that order, the operands written straight into the
/// kernel's images (the images are the only full-size copies). run_merge_kernel's checks, the
/// rows' own for the judged rows: the outputs' guard zones intact, the judged rows' lse and o
/// written, their inputs unchanged (and exact in the o type: std::invalid_argument otherwise).
/// Throws as run_merge_kernel.
AttnStates run_generated_merge(const MergeKernel& k, const GeneratedMerge& g,
                               const std::vector<std::int64_t>& judged);

/// Whether the kernel can run in this process; *why_not says why not.
bool runnable(const MergeKernel& k, std::string* why_not);

}  // namespace osvs
