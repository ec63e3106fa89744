// osvs's attention backward kernel on the device registered through the public API: the host
// entry's declaration (tiled_attention_backward.h) with the device's contract.
#include "tiled_attention_backward_device.cuh"

namespace osvs::builtin {
namespace {

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_backward_device) {
  return declare_tiled_attention_backward("osvs.attention_backward.tiled_device",
                                          launch_tiled_attention_backward<TiledAttentionBackward>,
                                          Where::Device);
}

}  // namespace
}  // namespace osvs::builtin
