// CombineKernel: a white-box combine operator (osvs/api/combine.h) as a kernel of the combine
// kind (osvs/api/kind.h). One operator is two kernels: "<name>" runs its CPU model
// (Where::Host) and, where the registering file was compiled by nvcc, "<name>.device" runs the
// same operator on the GPU through osvs's harness kernels (Where::Device). Each carries the
// declarations that apply where it runs: a known defect declared for CombineSide::Gpu is a
// known defect of the device kernel only.
//
// The operator's code is reached through its registry entry (op(): kernels/combine_operator.h),
// not through a launch callable: the combine laws hand its states, warps and merge trees to the
// executor of the kernel's side (the CPU model or the CUDA executor).
#pragma once

#include <string>
#include <utility>

#include "osvs/api/kernel_declaration.h"
#include "osvs/kernels/combine_operator.h"

namespace osvs {

class CombineKernel : public KernelDeclaration<CombineKernel, Launch> {
 public:
  CombineKernel() = default;
  CombineKernel(std::string name, Where where, const CombineOperator* op)
      : KernelDeclaration(std::move(name), where), op_(op) {}

  /// The registry entry of the operator (static storage: OSVS_REGISTER_COMBINE's, or osvs's own).
  const CombineOperator* op() const { return op_; }

 private:
  const CombineOperator* op_ = nullptr;
};

/// Why a combine kernel's declaration is unusable, or "": a name that cannot name a kernel, no
/// operator, a device kernel whose operator has no device launchers, or a skip / known defect
/// naming no combine law (registry.h's register_kernel refuses it with this text).
std::string declaration_problem(const CombineKernel& k);

}  // namespace osvs
