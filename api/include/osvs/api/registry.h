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
/// Adds the declaration `make` returns through `add` (a kind's register function) at static
/// initialisation: what every kind's OSVS_REGISTER_... macro expands to.
template <class Kernel>
struct Registration {
  Registration(Kernel (*make)(), void (*add)(Kernel)) { add(make()); }
};
}  // namespace detail

}  // namespace osvs

#define OSVS_DETAIL_CAT2(a, b) a##b
#define OSVS_DETAIL_CAT(a, b) OSVS_DETAIL_CAT2(a, b)

/// Registers the `Kernel` returned by the function body that follows through `add`; `tag` keeps
/// the names of different kinds apart.
#define OSVS_DETAIL_REGISTER(Kernel, add, tag, id)                                     \
  static Kernel OSVS_DETAIL_CAT(osvs_make_##tag##_, id)();                             \
  static const ::osvs::detail::Registration<Kernel> OSVS_DETAIL_CAT(                   \
      osvs_registration_##tag##_, id){&OSVS_DETAIL_CAT(osvs_make_##tag##_, id), &add}; \
  static Kernel OSVS_DETAIL_CAT(osvs_make_##tag##_, id)()

/// Registers the RowKernel returned by the function body that follows:
///   OSVS_REGISTER_ROW_KERNEL(my_softmax) { return osvs::RowKernel("my_softmax", ...)...; }
#define OSVS_REGISTER_ROW_KERNEL(id) \
  OSVS_DETAIL_REGISTER(::osvs::RowKernel, ::osvs::register_row_kernel, row_kernel, id)
