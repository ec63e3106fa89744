// Kernel plugins: shared libraries built with osvs_add_kernel_plugin() from the same adapters a
// kernel test uses, carrying kernels of every kind (row kernels, merge kernels). Loading one
// registers its kernels in this process (osvs audit --plugin).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "osvs/api/merge_kernel.h"
#include "osvs/api/row_kernel.h"

namespace osvs {

/// Layout tag a plugin and its loader must agree on: the API version and the sizes of the
/// declarations it hands over.
inline constexpr std::size_t kPluginAbi =
    (std::size_t{2} << 40) | (sizeof(RowKernel) << 20) | sizeof(MergeKernel);

/// The entry points every plugin exports (C linkage), one a kind: its registered kernels of
/// that kind.
template <class Kernel>
using PluginEntry = const Kernel* (*)(std::size_t* count, std::size_t* abi);
inline constexpr const char* kPluginRowEntryName = "osvs_plugin_kernels_v2";
inline constexpr const char* kPluginMergeEntryName = "osvs_plugin_merge_kernels_v2";

/// The last entry point: the message of the exception the last launch on this thread threw
/// inside the plugin (caught there), or null. Reading it clears it.
using PluginLastError = const char* (*)();
inline constexpr const char* kPluginLastErrorName = "osvs_plugin_last_error_v2";

/// The names a plugin registered, by kind.
struct PluginKernels {
  std::vector<std::string> row;
  std::vector<std::string> merge;
};

/// Loads the plugin at `path` (kept loaded for the process's lifetime) and registers a copy of
/// each of its kernels; returns their names. Throws std::runtime_error naming the file for a
/// library that cannot be loaded, lacks an entry point, was built against another layout,
/// registers no kernel or a name that is taken.
PluginKernels load_kernel_plugin(const std::string& path);

}  // namespace osvs
