#include "osvs/api/plugin.h"

#include <dlfcn.h>

#include <stdexcept>

#include "osvs/api/registry.h"

namespace osvs {
namespace {

/// The address of `name` in the plugin; std::runtime_error saying what to do when absent.
void* entry_point(void* handle, const std::string& path, const char* name) {
  void* p = dlsym(handle, name);
  if (!p)
    throw std::runtime_error(path + " is not a plugin of this osvs (no " + std::string(name) +
                             "; build it with osvs_add_kernel_plugin of this osvs)");
  return p;
}

/// Registers a copy of each kernel of kind K the plugin exports through `entry`; adds their
/// names to `out`.
template <class K>
void register_kind(PluginEntry entry, const std::string& path, PluginLastError last_error,
                   PluginKernels& out) {
  using Kernel = typename K::Kernel;
  std::size_t count = 0, abi = 0;
  const auto* kernels = static_cast<const Kernel*>(entry(K::name, &count, &abi));
  if (abi != kPluginAbi)
    throw std::runtime_error(path + " was built against another osvs API (layout tag " +
                             std::to_string(abi) + ", this osvs " + std::to_string(kPluginAbi) +
                             "): rebuild it with this osvs");
  for (std::size_t i = 0; i < count; ++i) {
    // The plugin catches its kernels' exceptions on its side; rethrown here, on this side.
    Kernel k = kernels[i];
    k.run([inner = kernels[i], last_error](const typename Kernel::Problem& p) {
      inner(p);
      if (const char* e = last_error()) throw std::runtime_error(e);
    });
    try {
      register_kernel(std::move(k));
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    out.kernels.push_back({K::name, kernels[i].name()});
  }
}

}  // namespace

PluginKernels load_kernel_plugin(const std::string& path) {
  // RTLD_LOCAL: the plugin's copy of the registry stays its own; RTLD_NOW: a missing symbol is
  // an error here, not a crash in the middle of an audit.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error("cannot load plugin " + path + ": " + dlerror());
  const auto last_error =
      reinterpret_cast<PluginLastError>(entry_point(handle, path, kPluginLastErrorName));
  const auto entry = reinterpret_cast<PluginEntry>(entry_point(handle, path, kPluginEntryName));
  PluginKernels out;
  for_each_kind([&](auto kind) { register_kind<decltype(kind)>(entry, path, last_error, out); });
  if (out.kernels.empty()) throw std::runtime_error(path + " registers no kernel");
  return out;
}

std::vector<std::string> PluginKernels::of_kind(const std::string& kind) const {
  std::vector<std::string> names;
  for (const PluginKernel& k : kernels)
    if (k.kind == kind) names.push_back(k.name);
  return names;
}

}  // namespace osvs
