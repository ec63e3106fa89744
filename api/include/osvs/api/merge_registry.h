// The merge-kernel registry: every merge kernel under test, osvs's own and the user's, is an
// entry, added at static-initialisation time by OSVS_REGISTER_MERGE_KERNEL or at run time by
// register_merge_kernel; the testbed's merge half reads the entries and nothing else.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/merge_kernel.h"
#include "osvs/api/registry.h"  // OSVS_DETAIL_REGISTER

namespace osvs {

/// Adds a kernel; throws std::invalid_argument for one without a name or callable, a name
/// registered twice, no o type or lse base, or a skip / known defect naming no merge law.
void register_merge_kernel(MergeKernel k);

/// Every registered merge kernel, in registration order.
const std::vector<MergeKernel>& merge_kernels();

/// The merge kernel named `name`, or nullptr.
const MergeKernel* find_merge_kernel(std::string_view name);

/// Why a declaration is unusable, or "" when it is fine (the checks of register_merge_kernel).
std::string declaration_problem(const MergeKernel& k);

}  // namespace osvs

/// Registers the MergeKernel returned by the function body that follows:
///   OSVS_REGISTER_MERGE_KERNEL(my_merge) { return osvs::MergeKernel("my.merge", ...)...; }
#define OSVS_REGISTER_MERGE_KERNEL(id) \
  OSVS_DETAIL_REGISTER(::osvs::MergeKernel, ::osvs::register_merge_kernel, merge_kernel, id)
