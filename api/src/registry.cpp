#include "osvs/api/registry.h"

#include <stdexcept>

#include "declaration.h"
#include "osvs/api/row_law_names.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {
namespace {

std::vector<RowKernel>& entries() {
  static std::vector<RowKernel> kernels;
  return kernels;
}

}  // namespace

namespace {
constexpr EnumName<RowOp> kRowOpNames[] = {{RowOp::Softmax, "softmax"},
                                           {RowOp::LogSoftmax, "log_softmax"}};
constexpr EnumName<Where> kWhereNames[] = {{Where::Host, "host"}, {Where::Device, "device"}};
}  // namespace

const char* to_string(RowOp op) {
  return name_in(kRowOpNames, op);
}

const char* to_string(Where w) {
  return name_in(kWhereNames, w);
}

std::string declaration_problem(const RowKernel& k) {
  if (const std::string why = api::name_problem(k.name()); !why.empty()) return why;
  if (!k.has_callable()) return "kernel '" + k.name() + "' has no callable (.run(...))";
  if (k.traits().vector_width < 1 || k.traits().block < 0 || k.traits().max_cols < 1)
    return "kernel '" + k.name() + "': vector_width >= 1, block >= 0, max_cols >= 1";
  if (const std::string why = api::derived_contract_problem(k); !why.empty())
    return "kernel '" + k.name() + "': " + why;
  const auto unknown_law = [&](const std::string& law, const char* what) -> std::string {
    for (std::string_view n : kRowLawNames)
      if (n == law) return "";
    return "kernel '" + k.name() + "': " + what + " '" + law + "' is not a row-kernel law (" +
           row_law_name_list() + ")";
  };
  for (const auto& [law, reason] : k.known_defects())
    if (std::string why = unknown_law(law, "known defect"); !why.empty()) return why;
  for (const auto& [law, reason] : k.skips())
    if (std::string why = unknown_law(law, "skip"); !why.empty()) return why;
  return "";
}

void register_row_kernel(RowKernel k) {
  if (const std::string why = declaration_problem(k); !why.empty())
    throw std::invalid_argument(why);
  if (find_row_kernel(k.name()))
    throw std::invalid_argument("kernel '" + k.name() + "' is registered twice");
  entries().push_back(std::move(k));
}

const std::vector<RowKernel>& row_kernels() {
  return entries();
}

const RowKernel* find_row_kernel(std::string_view name) {
  for (const RowKernel& k : entries())
    if (k.name() == name) return &k;
  return nullptr;
}

}  // namespace osvs
