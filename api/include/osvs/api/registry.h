// The registry of kernels under test, one for each kind (osvs/api/kind.h): every kernel, osvs's
// own and the user's, is an entry. Registration happens at static-initialisation time with
// OSVS_REGISTER_ROW_KERNEL / OSVS_REGISTER_MERGE_KERNEL in the user's adapter file, or at run
// time with register_kernel; the testbed, the audit and the replay read the entries and nothing
// else. Kernel is RowKernel or MergeKernel.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/attention_kernel.h"
#include "osvs/api/merge_kernel.h"
#include "osvs/api/row_kernel.h"

namespace osvs {

/// Adds a kernel; throws std::invalid_argument when declaration_problem(k) names a problem or
/// its name is registered twice.
template <class Kernel>
void register_kernel(Kernel k);

/// Every registered kernel of that kind, in registration order.
template <class Kernel>
const std::vector<Kernel>& registered();

/// The kernel of that kind named `name`, or nullptr.
template <class Kernel>
const Kernel* find_registered(std::string_view name);

/// Why a row kernel's declaration is unusable, or "" when it is fine: no name or callable, a
/// skip or known defect naming no row law, or a contract that cannot apply (a derived bound for
/// a shape that osvs's catalogue does not have, or for an output type other than f32).
std::string declaration_problem(const RowKernel& k);

/// Why a merge kernel's declaration is unusable, or "": no name or callable, no o type or lse
/// base, or a skip / known defect naming no merge law.
std::string declaration_problem(const MergeKernel& k);

/// Why an attention kernel's declaration is unusable, or "": no name or callable, no in type or
/// mask, a page size or head_dim out of range, a contract that is not ulps >= 0, or a skip /
/// known defect naming no attention law.
std::string declaration_problem(const AttentionKernel& k);

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
#define OSVS_REGISTER_ROW_KERNEL(id)                                                              \
  OSVS_DETAIL_REGISTER(::osvs::RowKernel, ::osvs::register_kernel<::osvs::RowKernel>, row_kernel, \
                       id)

/// Registers the MergeKernel returned by the function body that follows:
///   OSVS_REGISTER_MERGE_KERNEL(my_merge) { return osvs::MergeKernel("my.merge", ...)...; }
/// and OSVS_REGISTER_ATTENTION_KERNEL(my_flash) { return osvs::AttentionKernel(...)...; } the
/// AttentionKernel likewise.
#define OSVS_REGISTER_ATTENTION_KERNEL(id)                                                        \
  OSVS_DETAIL_REGISTER(::osvs::AttentionKernel, ::osvs::register_kernel<::osvs::AttentionKernel>, \
                       attention_kernel, id)

/// Registers the MergeKernel returned by the function body that follows (see above).
#define OSVS_REGISTER_MERGE_KERNEL(id)                                                    \
  OSVS_DETAIL_REGISTER(::osvs::MergeKernel, ::osvs::register_kernel<::osvs::MergeKernel>, \
                       merge_kernel, id)
