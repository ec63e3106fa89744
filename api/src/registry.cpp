#include "osvs/api/registry.h"

#include <stdexcept>

#include "declaration.h"
#include "entry_registry.h"
#include "osvs/api/law_names.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {
constexpr EnumName<RowOp> kRowOpNames[] = {{RowOp::Softmax, "softmax"},
                                           {RowOp::LogSoftmax, "log_softmax"}};
}  // namespace

const char* to_string(RowOp op) {
  return name_in(kRowOpNames, op);
}

std::string declaration_problem(const RowKernel& k) {
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return "kernel '" + k.name() + "' has no callable (.run(...))";
  if (k.traits().vector_width < 1 || k.traits().block < 0 || k.traits().max_cols < 1)
    return "kernel '" + k.name() + "': vector_width >= 1, block >= 0, max_cols >= 1";
  if (const std::string why =
          api::value_types_problem("kernel '" + k.name() + "'", {k.in_type(), k.out_type()});
      !why.empty())
    return why;
  if (const std::string why = api::layout_problem(k.traits()); !why.empty())
    return "kernel '" + k.name() + "': " + why;
  if (const std::string why = api::derived_contract_problem(k); !why.empty())
    return "kernel '" + k.name() + "': " + why;
  return api::declared_law_problem("kernel '" + k.name() + "'", k, kRowLawNames, "row-kernel law");
}

OSVS_INSTANTIATE_REGISTRY(RowKernel);

}  // namespace osvs
