// The kernel registry: every row kernel under test, osvs's own and the user's, is an entry here.
// Registration happens at static-initialisation time with OSVS_REGISTER_ROW_KERNEL, in the
// user's adapter file, or at run time with register_row_kernel; the testbed, the audit and the
// replay read the entries and nothing else.
#pragma once

#include <string_view>
#include <vector>

#include "osvs/api/row_kernel.h"

namespace osvs {

/// Adds a kernel; throws std::invalid_argument for a kernel without a name or callable, a name
/// registered twice, or a contract that cannot apply (a derived bound for a shape that osvs's
/// catalogue does not have, or for an output type other than f32).
void register_row_kernel(RowKernel k);

/// Every registered kernel, in registration order.
const std::vector<RowKernel>& row_kernels();

/// The kernel named `name`, or nullptr.
const RowKernel* find_row_kernel(std::string_view name);

/// Why a kernel's declaration is unusable, or "" when it is fine (the checks of
/// register_row_kernel, for callers that collect instead of throwing).
std::string declaration_problem(const RowKernel& k);

namespace detail {
struct RowKernelRegistration {
  explicit RowKernelRegistration(RowKernel (*make)()) { register_row_kernel(make()); }
};
}  // namespace detail

}  // namespace osvs

#define OSVS_DETAIL_CAT2(a, b) a##b
#define OSVS_DETAIL_CAT(a, b) OSVS_DETAIL_CAT2(a, b)

/// Registers the RowKernel returned by the function body that follows:
///   OSVS_REGISTER_ROW_KERNEL(my_softmax) { return osvs::RowKernel("my_softmax", ...)...; }
#define OSVS_REGISTER_ROW_KERNEL(id)                                        \
  static ::osvs::RowKernel OSVS_DETAIL_CAT(osvs_make_row_kernel_, id)();    \
  static const ::osvs::detail::RowKernelRegistration OSVS_DETAIL_CAT(       \
      osvs_registration_, id){&OSVS_DETAIL_CAT(osvs_make_row_kernel_, id)}; \
  static ::osvs::RowKernel OSVS_DETAIL_CAT(osvs_make_row_kernel_, id)()
