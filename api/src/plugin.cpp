#include "osvs/api/plugin.h"

#include <dlfcn.h>

#include <stdexcept>

#include "osvs/api/registry.h"

namespace osvs {

std::vector<std::string> load_kernel_plugin(const std::string& path) {
  // RTLD_LOCAL: the plugin's copy of the registry stays its own; RTLD_NOW: a missing symbol is
  // an error here, not a crash in the middle of an audit.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error("cannot load plugin " + path + ": " + dlerror());
  const auto entry = reinterpret_cast<PluginEntry>(dlsym(handle, kPluginEntryName));
  if (!entry)
    throw std::runtime_error(path + " is not an osvs kernel plugin (no " +
                             std::string(kPluginEntryName) +
                             "; build it with osvs_add_kernel_plugin)");
  const auto last_error = reinterpret_cast<PluginLastError>(dlsym(handle, kPluginLastErrorName));
  if (!last_error)
    throw std::runtime_error(path + " lacks " + std::string(kPluginLastErrorName) +
                             ": rebuild it with this osvs");
  std::size_t count = 0, abi = 0;
  const RowKernel* kernels = entry(&count, &abi);
  if (abi != kPluginAbi)
    throw std::runtime_error(path + " was built against another osvs API (layout tag " +
                             std::to_string(abi) + ", this osvs " + std::to_string(kPluginAbi) +
                             "): rebuild it with this osvs");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < count; ++i) {
    // The plugin catches its kernels' exceptions on its side; rethrown here, on this side.
    RowKernel k = kernels[i];
    k.run([inner = kernels[i], last_error](const RowProblem& p) {
      inner(p);
      if (const char* e = last_error()) throw std::runtime_error(e);
    });
    try {
      register_kernel(std::move(k));
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    names.push_back(kernels[i].name());
  }
  if (names.empty()) throw std::runtime_error(path + " registers no kernel");
  return names;
}

}  // namespace osvs
