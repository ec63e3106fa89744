// The shapes of osvs's own kernels and their declarations, shared by the host (CPU model) and
// device registrations so that both declare the same contract and conventions.
#pragma once

#include <string>
#include <vector>

#include "osvs/kernels/documented.h"
#include "osvs/kernels/fast_plan.h"
#include "osvs/kernels/softmax_kernel_fns.h"
#include "osvs/osvs.h"

namespace osvs::builtin {

struct Shape {
  KernelKind kernel;
  CombineKind combine;
  int block;
};

/// seed and hardened 2-pass, and the 3-pass baseline, at 256 threads per block; the fast kernel
/// (hardened; its plan picks its own threads, fast_plan.h: the 256 is not used).
inline std::vector<Shape> shapes() {
  return {{KernelKind::TwoPass, CombineKind::Seed, 256},
          {KernelKind::TwoPass, CombineKind::Hardened, 256},
          {KernelKind::ThreePass, CombineKind::Hardened, 256},
          {KernelKind::Fast, CombineKind::Hardened, 256}};
}

/// "osvs.two_pass.hardened.256" (device) / "osvs.two_pass.hardened.256.cpu_model" (host);
/// "osvs.fast" / "osvs.fast.cpu_model".
inline std::string name_of(const Shape& s, Where where) {
  const SoftmaxKernelFns& facts = builtin_softmax_kernel(s.kernel);
  std::string n = std::string("osvs.") + facts.name;
  if (facts.folds_with_combine && !facts.hardened_combine_only)
    n += std::string(".") + to_string(s.combine);
  if (!facts.plans_own_block) n += "." + std::to_string(s.block);
  return where == Where::Host ? n + ".cpu_model" : n;
}

/// The fast kernel's layouts, read off its plan (fast_plan.h) so that they cannot drift from it:
/// a new layout wherever the plan's shape changes (a warp's float4s a lane, a block's threads,
/// a cluster's or a split row's threads a block), a cluster or split row in pieces of one
/// block's span.
inline void declare_fast_layouts(RowKernel& k) {
  const auto shape_of = [](std::int64_t n) {
    const FastPlan p = fast_plan(n);
    const bool pieces = p.blocks > 1 || p.chunks > 1;
    const char* path = p.chunks > 1      ? "split row"
                       : p.blocks > 1    ? "cluster"
                       : p.threads == 32 ? "warp"
                                         : "block";
    return std::string(path) + ", " + std::to_string(p.threads) + " threads, " +
           std::to_string(p.vec) + (p.vec == 1 ? " float4" : " float4s") + " a thread" +
           (pieces ? ", " + std::to_string(p.chunk_span()) + " elements a block" : "");
  };
  std::string current;
  for (std::int64_t n = 1; n <= kFastClusterRowMax + 1; ++n)
    if (const std::string shape = shape_of(n); shape != current) {
      const FastPlan p = fast_plan(n);
      k.layout(shape, n, p.blocks > 1 || p.chunks > 1 ? p.chunk_span() : 0);
      current = shape;
    }
}

/// The lengths a kernel's tests gather around: the fast kernel's float4 loads (tails mod 4) and
/// its layouts; the others' block of threads.
inline RowKernel& shape_traits(RowKernel& k, const Shape& s) {
  if (builtin_softmax_kernel(s.kernel).plans_own_block) {
    declare_fast_layouts(k);
    return k.vector_width(4).block(static_cast<int>(kFastBlockRowMax));
  }
  return k.block(s.block);
}

/// The declaration without its callable: derived contract, documented conventions, and the
/// invariances every kernel of osvs holds bit for bit (an exact shift leaves every x_j - m
/// unchanged; rows never interact; no atomics).
inline RowKernel declare(const Shape& s, Where where) {
  const bool zero = std::isnan(documented_masked_output(s.kernel, s.combine)) == false;
  RowKernel k(name_of(s, where), where);
  if (builtin_softmax_kernel(s.kernel).is_combine_two_pass && s.combine.op().int32_two_pass_index)
    k.known_defect("large_batch",
                   "the seed kernel indexes `row * N` in int: its adapter's validation refuses "
                   "M * N >= 2^31 (kernels/validate.h); launched anyway, it stopped with "
                   "cudaErrorIllegalAddress on the H200");
  return shape_traits(k, s)
      .softmax()
      .types(DType::F32, DType::F32)
      .masked_rows(zero ? MaskedRow::Zero : MaskedRow::NaN)
      .pos_inf_rows(PosInfRow::NaN)
      .strided(false)
      .exact_shift_invariant()
      .accuracy(Accuracy::derived({to_string(s.kernel), to_string(s.combine), s.block}))
      .description(where == Where::Host ? "CPU model of osvs's kernel" : "osvs's CUDA kernel");
}

/// Registers every shape where `where` says, each running through run(shape, problem).
template <class Run>
void register_shapes(Where where, Run run) {
  for (const Shape& s : shapes())
    register_kernel(declare(s, where).run([s, run](const RowProblem& p) { run(s, p); }));
}

}  // namespace osvs::builtin
