// osvs's own attention kernels registered through the public API: the forward
// (tiled_attention.h), the forward on fp8 K/V (tiled_attention_fp8.h) and the backward
// (tiled_attention_backward.h).
#include "tiled_attention.h"
#include "tiled_attention_backward.h"
#include "tiled_attention_fp8.h"

namespace osvs::builtin {
namespace {

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_host) {
  return declare_tiled_attention("osvs.attention.tiled_host", tiled_attention<TiledAttention>);
}

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_fp8_host) {
  return declare_tiled_attention_fp8("osvs.attention.tiled_host_fp8",
                                     tiled_attention<TiledAttention>);
}

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_backward_host) {
  return declare_tiled_attention_backward("osvs.attention_backward.tiled_host",
                                          tiled_attention_backward<TiledAttentionBackward>);
}

}  // namespace
}  // namespace osvs::builtin
