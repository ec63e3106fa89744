// Linked into every kernel plugin (osvs_add_kernel_plugin): exports the plugin's registry.
//
// A plugin carries its own copy of the C++ runtime (osvs links it statically), so an exception
// must never cross from the plugin into the loader: each exported kernel's callable catches
// everything inside the plugin and leaves the message for osvs_plugin_last_error_v1, which the
// loader reads after every launch and turns into a KernelFailure on its side.
#include <exception>
#include <string>
#include <vector>

#include "osvs/api/plugin.h"
#include "osvs/api/registry.h"

namespace {

thread_local std::string last_error;
thread_local bool has_error = false;

osvs::RowKernel guarded(const osvs::RowKernel& k) {
  osvs::RowKernel copy = k;
  copy.run([inner = k](const osvs::RowProblem& p) {
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

}  // namespace

extern "C" __attribute__((visibility("default"))) const osvs::RowKernel* osvs_plugin_kernels_v1(
    std::size_t* count, std::size_t* abi) {
  static const std::vector<osvs::RowKernel> exported = [] {
    std::vector<osvs::RowKernel> out;
    for (const osvs::RowKernel& k : osvs::registered<osvs::RowKernel>()) out.push_back(guarded(k));
    return out;
  }();
  *count = exported.size();
  *abi = osvs::kPluginAbi;
  return exported.data();
}

extern "C" __attribute__((visibility("default"))) const char* osvs_plugin_last_error_v1() {
  if (!has_error) return nullptr;
  has_error = false;
  return last_error.c_str();
}
