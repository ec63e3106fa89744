#include "osvs/api/registry.h"

#include <algorithm>
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

bool MergeKernel::takes_head_dim(int d) const {
  if (d < 1 || d > kAttnMaxHeadDim || head_dim_multiple_ < 1 || d % head_dim_multiple_ != 0)
    return false;
  return head_dims_.empty() ||
         std::find(head_dims_.begin(), head_dims_.end(), d) != head_dims_.end();
}

std::vector<int> MergeKernel::supported_head_dims() const {
  std::vector<int> out;
  for (int d = 1; d <= kAttnMaxHeadDim; ++d)
    if (takes_head_dim(d)) out.push_back(d);
  return out;
}

std::string declaration_problem(const MergeKernel& k) {
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return "merge kernel '" + k.name() + "' has no callable (.run(...))";
  if (k.o_types().empty() || k.lse_bases().empty())
    return "merge kernel '" + k.name() + "' declares no o type or no lse base";
  if (const std::string why =
          api::value_types_problem("merge kernel '" + k.name() + "'", k.o_types());
      !why.empty())
    return why;
  if (k.supported_head_dims().empty())
    return "merge kernel '" + k.name() + "' declares no head_dim of 1 ... " +
           std::to_string(kAttnMaxHeadDim) + " (head_dims, head_dim_multiple)";
  return api::declared_law_problem("merge kernel '" + k.name() + "'", k, kMergeLawNames,
                                   "merge law");
}

OSVS_INSTANTIATE_REGISTRY(MergeKernel);

}  // namespace osvs
