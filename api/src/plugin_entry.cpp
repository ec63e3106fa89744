// Linked into every kernel plugin (osvs_add_kernel_plugin): exports the plugin's registry.
#include "osvs/api/plugin.h"
#include "osvs/api/registry.h"

extern "C" __attribute__((visibility("default"))) const osvs::RowKernel* osvs_plugin_kernels_v1(
    std::size_t* count, std::size_t* abi) {
  *count = osvs::row_kernels().size();
  *abi = osvs::kPluginAbi;
  return osvs::row_kernels().data();
}
