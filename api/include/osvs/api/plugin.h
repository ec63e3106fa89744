// Kernel plugins: shared libraries built with osvs_add_kernel_plugin() from the same adapters a
// kernel test uses, carrying kernels of every kind (osvs/api/kind.h). Loading one registers its
// kernels in this process (osvs audit --plugin). One entry point serves every kind, by name, so a
// new kind needs nothing here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/kind.h"

namespace osvs {

/// Layout tag a plugin and its loader must agree on: the API version, the kinds (their names'
/// lengths) and the sizes of the declarations it hands over, mixed in kind order.
inline constexpr std::size_t kPluginAbi = [] {
  std::size_t tag = 3;
  for_each_kind([&tag](auto kind) {
    using K = decltype(kind);
    tag = tag * 1000003u + std::char_traits<char>::length(K::name) * 4099u +
          sizeof(typename K::Kernel);
  });
  return tag;
}();

/// The entry point every plugin exports (C linkage): its registered kernels of the kind named
/// `kind` (an array of that kind's Kernel; count 0 for a kind it does not know).
using PluginEntry = const void* (*)(const char* kind, std::size_t* count, std::size_t* abi);
inline constexpr const char* kPluginEntryName = "osvs_plugin_kernels_v3";

/// The other entry point: the message of the exception the last launch on this thread threw
/// inside the plugin (caught there), or null. Reading it clears it.
using PluginLastError = const char* (*)();
inline constexpr const char* kPluginLastErrorName = "osvs_plugin_last_error_v3";

/// A kernel a plugin registered: its kind's name and its own.
struct PluginKernel {
  std::string kind;
  std::string name;
};

/// What a plugin registered, kind by kind in for_each_kind's order.
struct PluginKernels {
  std::vector<PluginKernel> kernels;
  /// The names of the kernels of one kind.
  std::vector<std::string> of_kind(const std::string& kind) const;
};

/// Loads the plugin at `path` (kept loaded for the process's lifetime) and registers a copy of
/// each of its kernels; returns their names. Throws std::runtime_error naming the file for a
/// library that cannot be loaded, lacks an entry point, was built against another layout,
/// registers no kernel or a name that is taken.
PluginKernels load_kernel_plugin(const std::string& path);

}  // namespace osvs
