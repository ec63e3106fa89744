// The shapes of osvs's own kernels and their declarations, shared by the host (CPU model) and
// device registrations so that both declare the same contract and conventions.
#pragma once

#include <string>
#include <vector>

#include "osvs/kernels/documented.h"
#include "osvs/kernels/fast_plan.h"
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
  std::string n = std::string("osvs.") + to_string(s.kernel);
  if (s.kernel == KernelKind::TwoPass) n += std::string(".") + to_string(s.combine);
  if (s.kernel != KernelKind::Fast) n += "." + std::to_string(s.block);
  return where == Where::Host ? n + ".cpu_model" : n;
}

/// The lengths a kernel's tests gather around: the fast kernel's float4 loads (tails mod 4) and
/// its longest one-block row (cluster rows start past 8192); the others' block of threads.
inline RowKernel& shape_traits(RowKernel& k, const Shape& s) {
  if (s.kernel == KernelKind::Fast)
    return k.vector_width(4).block(static_cast<int>(kFastBlockRowMax));
  return k.block(s.block);
}

/// The declaration without its callable: derived contract, documented conventions, and the
/// invariances every kernel of osvs holds bit for bit (an exact shift leaves every x_j - m
/// unchanged; rows never interact; no atomics).
inline RowKernel declare(const Shape& s, Where where) {
  const bool zero = std::isnan(documented_masked_output(s.kernel, s.combine)) == false;
  RowKernel k(name_of(s, where), where);
  if (s.kernel == KernelKind::TwoPass && s.combine.op().int32_two_pass_index)
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
