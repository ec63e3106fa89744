// The combine kind's declaration: the registry's check of a combine kernel's declaration
// (osvs/api/registry.h), and an operator's kernels, one a side it runs on (osvs/api/combine.h).
#include <string>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/combine.h"
#include "osvs/api/combine_kernel.h"
#include "osvs/api/law_names.h"

namespace osvs {

std::string declaration_problem(const CombineKernel& k) {
  const std::string who = "combine '" + k.name() + "'";
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (k.op() == nullptr) return who + " has no operator";
  if (k.where() == Where::Device && k.op()->device == nullptr)
    return who +
           " runs on the device, but its operator was registered from host code (no "
           "device launchers: compile the adapter with nvcc)";
  return api::declared_law_problem(who, k, kCombineLawNames, "combine law");
}

OSVS_INSTANTIATE_REGISTRY(CombineKernel);

namespace {

/// The kernel of op on one side, with the declarations of `test` that apply there.
CombineKernel kernel_on(const CombineOperator* op, const CombineTest& test, Where where) {
  const bool gpu = where == Where::Device;
  CombineKernel k(std::string(op->name) + (gpu ? ".device" : ""), where, op);
  for (const auto& [law, reason] : test.skips()) k.skip(law, reason);
  for (const auto& [law, defect] : test.known_defects())
    if (defect.second == CombineSide::Both || (defect.second == CombineSide::Gpu) == gpu)
      k.known_defect(law, defect.first);
  return k;
}

}  // namespace

void register_combine_operator(const CombineOperator* op, const CombineTest& test) {
  if (op == nullptr) throw std::invalid_argument("register_combine_operator: no operator");
  // Every declared law name is checked on the host kernel, a device-only defect's included.
  CombineKernel all(op->name, Where::Host, op);
  for (const auto& [law, reason] : test.skips()) all.skip(law, reason);
  for (const auto& [law, defect] : test.known_defects()) all.known_defect(law, defect.first);
  if (const std::string why = declaration_problem(all); !why.empty())
    throw std::invalid_argument(why);
  register_kernel(kernel_on(op, test, Where::Host));
  if (op->device != nullptr) register_kernel(kernel_on(op, test, Where::Device));
}

}  // namespace osvs
