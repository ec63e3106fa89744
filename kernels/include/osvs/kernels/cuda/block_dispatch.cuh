// The block sizes the kernels are compiled for (block_schedule.h, kSupportedBlocks), as template
// arguments: with_block_size(b, f) calls f(std::integral_constant<int, b>{}).
#pragma once

#include <type_traits>

namespace osvs::cuda {

/// Calls f with the block size b as a compile-time constant; false when b is not supported.
template <class F>
bool with_block_size(int b, F&& f) {
  switch (b) {
    case 32:
      return f(std::integral_constant<int, 32>{}), true;
    case 64:
      return f(std::integral_constant<int, 64>{}), true;
    case 128:
      return f(std::integral_constant<int, 128>{}), true;
    case 256:
      return f(std::integral_constant<int, 256>{}), true;
    case 512:
      return f(std::integral_constant<int, 512>{}), true;
    case 1024:
      return f(std::integral_constant<int, 1024>{}), true;
  }
  return false;
}

}  // namespace osvs::cuda
