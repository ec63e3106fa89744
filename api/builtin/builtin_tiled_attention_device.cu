// osvs's tiled attention kernel on the device registered through the public API: the host
// entries' declarations (tiled_attention.h, and tiled_attention_fp8.h for fp8 K/V) with the
// device's contracts.
#include "tiled_attention_device.cuh"
#include "tiled_attention_fp8.h"

namespace osvs::builtin {
namespace {

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_device) {
  return declare_tiled_attention("osvs.tiled_attention.device",
                                 launch_tiled_attention<TiledAttention>, Where::Device);
}

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_fp8_device) {
  return declare_tiled_attention_fp8("osvs.tiled_attention_fp8.device",
                                     launch_tiled_attention<TiledAttention>, Where::Device);
}

}  // namespace
}  // namespace osvs::builtin
