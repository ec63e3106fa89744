// FastSchedule: the fast kernel's order (fast_schedule.h), as written, as a policy type.
//
// The CPU model (fast_schedule.h's model_fast_row, fast_model.h) and the device kernels
// (kernels/src/cuda/fast/) are templates over a schedule policy and read the same static constexpr
// members below, so one policy drives both executors. The kernel under test instantiates
// FastSchedule; mutation/ derives its fast-kernel mutants from it, each changing one member
// (mutation/README.md).
#pragma once

namespace osvs {

struct FastSchedule {
  /// Step 5 merges every one of the row's C part states; false: the first C - 1 only (the last
  /// part's state is lost).
  static constexpr bool kMergeAllChunks = true;
  /// Step 1 loads the row's tail, the n % 4 elements after its last whole float4; false: whole
  /// float4s only, the tail reads as -inf (its outputs are written, from -inf, as 0).
  static constexpr bool kLoadTail = true;
  /// Every block of the row merges the same part states, a reduction's order (one row state);
  /// false: the block of part c merges the states 0 .. c only, a scan's prefix order.
  static constexpr bool kMergeInReductionOrder = true;
};

}  // namespace osvs
