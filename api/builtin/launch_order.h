// The launch order of the mutants that model float atomics (tiled_attention.h's partials merged
// right to left, tiled_attention_backward.h's rows summed in reverse): the order an atomic add
// lands in changes from launch to launch.
#pragma once

#include <atomic>

namespace osvs::builtin {

/// Whether this launch of the code instantiated for Tag runs in the other order: never when
/// `varies` is false, else every other launch (one counter a Tag).
template <class Tag, bool varies>
bool every_other_launch() {
  if (!varies) return false;
  static std::atomic<unsigned> launches{0};
  return launches++ % 2 == 1;
}

}  // namespace osvs::builtin
