#include "osvs/api/merge_registry.h"

#include <stdexcept>

#include "declaration.h"
#include "osvs/api/merge_laws.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {

std::vector<MergeKernel>& entries() {
  static std::vector<MergeKernel> kernels;  // first use: registrations run at static init
  return kernels;
}

constexpr EnumName<EmptyPartial> kEmptyPartialNames[] = {{EmptyPartial::NegInfLse, "lse -inf"},
                                                         {EmptyPartial::PosInfLse, "lse +inf"}};

std::string law_problem(const MergeKernel& k, const std::string& law, const char* what) {
  if (find_merge_law(law)) return "";
  std::string known;
  for (const MergeLaw& l : merge_laws()) known += (known.empty() ? "" : ", ") + l.name;
  return "merge kernel '" + k.name() + "': " + what + " '" + law + "' is not a merge law (" +
         known + ")";
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
  for (const auto& [law, reason] : k.known_defects())
    if (std::string why = law_problem(k, law, "known defect"); !why.empty()) return why;
  for (const auto& [law, reason] : k.skips())
    if (std::string why = law_problem(k, law, "skip"); !why.empty()) return why;
  return "";
}

void register_merge_kernel(MergeKernel k) {
  if (const std::string why = declaration_problem(k); !why.empty())
    throw std::invalid_argument(why);
  if (find_merge_kernel(k.name()))
    throw std::invalid_argument("merge kernel '" + k.name() + "' is registered twice");
  entries().push_back(std::move(k));
}

const std::vector<MergeKernel>& merge_kernels() {
  return entries();
}

const MergeKernel* find_merge_kernel(std::string_view name) {
  for (const MergeKernel& k : entries())
    if (k.name() == name) return &k;
  return nullptr;
}

}  // namespace osvs
