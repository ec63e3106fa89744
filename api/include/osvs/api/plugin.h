// Kernel plugins: shared libraries built with osvs_add_kernel_plugin() from the same adapters a
// kernel test uses. Loading one registers its kernels in this process (osvs audit --plugin).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "osvs/api/row_kernel.h"

namespace osvs {

/// Layout tag a plugin and its loader must agree on (API version and the size of RowKernel).
inline constexpr std::size_t kPluginAbi = (std::size_t{1} << 40) | sizeof(RowKernel);

/// The entry point every plugin exports (C linkage): its registered kernels.
using PluginEntry = const RowKernel* (*)(std::size_t* count, std::size_t* abi);
inline constexpr const char* kPluginEntryName = "osvs_plugin_kernels_v1";

/// The second entry point: the message of the exception the last launch on this thread threw
/// inside the plugin (caught there), or null. Reading it clears it.
using PluginLastError = const char* (*)();
inline constexpr const char* kPluginLastErrorName = "osvs_plugin_last_error_v1";

/// Loads the plugin at `path` (kept loaded for the process's lifetime) and registers a copy of
/// each of its kernels; returns their names. Throws std::runtime_error naming the file for a
/// library that cannot be loaded, lacks the entry point, was built against another layout, or
/// registers a name that is taken.
std::vector<std::string> load_kernel_plugin(const std::string& path);

}  // namespace osvs
