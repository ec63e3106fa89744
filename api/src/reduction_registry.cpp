// The reduction kind's declaration: the registry's check of a declaration (osvs/api/registry.h).
#include <cmath>
#include <string>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/law_names.h"
#include "osvs/api/reduction_kernel.h"

namespace osvs {
std::string declaration_problem(const ReductionKernel& k) {
  const std::string who = "reduction '" + k.name() + "'";
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return who + " has no callable (.run(...))";
  if (k.state_fields().empty() || k.result_fields().empty())
    return who + " declares no state field or no result field";
  if (!k.exact()) return who + " declares no exact reference (.exact(...))";
  if (!(std::isfinite(k.max_abs()) && k.max_abs() > 0))
    return who + " declares a domain max_abs that is not a positive finite float";
  if (k.cpu_model() == k.name()) return who + " names itself as its CPU model";
  return api::declared_law_problem(who, k, kReductionLawNames, "reduction law");
}

OSVS_INSTANTIATE_REGISTRY(ReductionKernel);

}  // namespace osvs
