#include "osvs/api/registry.h"

#include <stdexcept>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/law_names.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {

constexpr EnumName<EmptyPartial> kEmptyPartialNames[] = {{EmptyPartial::NegInfLse, "lse -inf"},
                                                         {EmptyPartial::PosInfLse, "lse +inf"}};

}  // namespace

const char* to_string(EmptyPartial e) {
  return name_in(kEmptyPartialNames, e);
}

std::string declaration_problem(const MergeKernel& k) {
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return "merge kernel '" + k.name() + "' has no callable (.run(...))";
  if (k.o_types().empty() || k.lse_bases().empty())
    return "merge kernel '" + k.name() + "' declares no o type or no lse base";
  return api::declared_law_problem("merge kernel '" + k.name() + "'", k, kMergeLawNames,
                                   "merge law");
}

OSVS_INSTANTIATE_REGISTRY(MergeKernel);

}  // namespace osvs
