// osvs's own attention kernel registered through the public API (tiled_attention.h).
#include "tiled_attention.h"

namespace osvs::builtin {
namespace {

OSVS_REGISTER_ATTENTION_KERNEL(tiled_attention_host) {
  return declare_tiled_attention("osvs.attention.tiled_host", tiled_attention<TiledAttention>);
}

}  // namespace
}  // namespace osvs::builtin
