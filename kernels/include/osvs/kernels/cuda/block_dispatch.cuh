// The block sizes the kernels are compiled for (block_schedule.h, kSupportedBlocks), as template
// arguments: with_block_size(b, f) calls f(std::integral_constant<int, b>{}).
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

#include "osvs/kernels/block_schedule.h"

namespace osvs::cuda {

/// f(integral_constant<kSupportedBlocks[I]>) for the one I with kSupportedBlocks[I] == b, if any:
/// f is instantiated for every supported size, and called at most once.
template <class F, std::size_t... I>
bool with_supported_block(int b, F& f, std::index_sequence<I...>) {
  return (
      (b == kSupportedBlocks[I] && (f(std::integral_constant<int, kSupportedBlocks[I]>{}), true)) ||
      ...);
}

/// Calls f with the block size b as a compile-time constant; false when b is not supported.
template <class F>
bool with_block_size(int b, F&& f) {
  return with_supported_block(b, f, std::make_index_sequence<std::size(kSupportedBlocks)>{});
}

}  // namespace osvs::cuda
