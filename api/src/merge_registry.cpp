#include "osvs/api/merge_registry.h"

#include <stdexcept>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/merge_laws.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {

api::EntryRegistry<MergeKernel>& registry() {
  static api::EntryRegistry<MergeKernel> kernels;  // first use: registrations run at static init
  return kernels;
}

constexpr EnumName<EmptyPartial> kEmptyPartialNames[] = {{EmptyPartial::NegInfLse, "lse -inf"},
                                                         {EmptyPartial::PosInfLse, "lse +inf"}};

/// The merge laws' names, what a declaration's skip and known defect may name.
std::vector<std::string> merge_law_names() {
  std::vector<std::string> names;
  for (const MergeLaw& l : merge_laws()) names.push_back(l.name);
  return names;
}

}  // namespace

const char* to_string(EmptyPartial e) {
  return name_in(kEmptyPartialNames, e);
}

std::string declaration_problem(const MergeKernel& k) {
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return "merge kernel '" + k.name() + "' has no callable (.run(...))";
  if (k.o_types().empty() || k.lse_bases().empty())
    return "merge kernel '" + k.name() + "' declares no o type or no lse base";
  return api::declared_law_problem("merge kernel '" + k.name() + "'", k, merge_law_names(),
                                   "merge law");
}

void register_merge_kernel(MergeKernel k) {
  const std::string problem = declaration_problem(k);
  registry().add(std::move(k), problem, "merge kernel");
}

const std::vector<MergeKernel>& merge_kernels() {
  return registry().entries();
}

const MergeKernel* find_merge_kernel(std::string_view name) {
  return registry().find(name);
}

}  // namespace osvs
