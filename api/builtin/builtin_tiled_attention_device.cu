// osvs's tiled attention kernel on the device registered through the public API: the host
// entry's declaration (tiled_attention.h) with the device's contract.
#include "tiled_attention_device.cuh"

namespace osvs::builtin {
namespace {

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_device) {
  return declare_tiled_attention("osvs.tiled_attention.device",
                                 launch_tiled_attention<TiledAttention>, Where::Device);
}

}  // namespace
}  // namespace osvs::builtin
