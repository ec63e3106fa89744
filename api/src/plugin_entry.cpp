// Linked into every kernel plugin (osvs_add_kernel_plugin): exports the plugin's registries of
// every kind through one entry point (osvs/api/plugin.h).
//
// A plugin carries its own copy of the C++ runtime (osvs links it statically), so an exception
// must never cross from the plugin into the loader: each exported kernel's callable catches
// everything inside the plugin and leaves the message for osvs_plugin_last_error_v3, which the
// loader reads after every launch and turns into a KernelFailure on its side.
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/api/plugin.h"
#include "osvs/api/registry.h"

namespace {

thread_local std::string last_error;
thread_local bool has_error = false;

template <class Kernel>
Kernel guarded(const Kernel& k) {
  Kernel copy = k;
  copy.run([inner = k](const typename Kernel::Problem& p) {
    try {
      inner(p);
    } catch (const std::exception& e) {
      last_error = e.what();
      has_error = true;
    } catch (...) {
      last_error = "an exception not derived from std::exception";
      has_error = true;
    }
  });
  return copy;
}

/// The registered kernels of one kind, guarded, made once.
template <class Kernel>
const Kernel* exported(std::size_t* count, std::size_t* abi) {
  static const std::vector<Kernel> kernels = [] {
    std::vector<Kernel> out;
    for (const Kernel& k : osvs::registered<Kernel>()) out.push_back(guarded(k));
    return out;
  }();
  *count = kernels.size();
  *abi = osvs::kPluginAbi;
  return kernels.data();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const void* osvs_plugin_kernels_v3(
    const char* kind, std::size_t* count, std::size_t* abi) {
  const void* out = nullptr;
  *count = 0;
  *abi = osvs::kPluginAbi;
  osvs::for_each_kind([&](auto k) {
    using K = decltype(k);
    if (std::string_view(kind) == K::name) out = exported<typename K::Kernel>(count, abi);
  });
  return out;
}

extern "C" __attribute__((visibility("default"))) const char* osvs_plugin_last_error_v3() {
  if (!has_error) return nullptr;
  has_error = false;
  return last_error.c_str();
}
