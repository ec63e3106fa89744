// The device launchers of one combine operator (combine_operator.h, CombineDeviceOps): the
// harness kernels (pairs, a warp's shuffle tree, partitions and merge orders) and the 2-pass
// softmax kernel, instantiated for Op in the file that registers it. Launch errors are left for
// the executor to check.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/cuda/combine_kernels.cuh"
#include "osvs/kernels/cuda/two_pass_launch.cuh"

namespace osvs::cuda {

inline unsigned blocks_for(std::int64_t threads, int block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

/// Int32TwoPassIndex: the 2-pass kernel indexes rows and columns in int (the seed as written,
/// SeedBlockSchedule; validation keeps its batches inside int), else in int64 (BlockSchedule).
template <class Op, bool Int32TwoPassIndex>
struct DeviceOpsOf {
  using TwoPassSchedule = std::conditional_t<Int32TwoPassIndex, SeedBlockSchedule, BlockSchedule>;

  static void pairs(const State* a, const State* b, State* out, std::int64_t n) {
    combine_pairs_kernel<Op><<<blocks_for(n, 256), 256>>>(a, b, out, n);
  }
  static void warp_reduce(const State* lanes, State* out, std::int64_t groups) {
    warp_reduce_kernel<Op><<<blocks_for(groups * kWarpSize, 128), 128>>>(lanes, out, groups);
  }
  static void harness(const DeviceHarnessArgs& a) {
    harness_kernel<OnlineAlg<Op>>
        <<<blocks_for(a.num_cases, 128), 128>>>(a.values, a.chunk_offsets, a.slot_chunk, a.merges,
                                                static_cast<const DeviceHarnessCase*>(a.cases),
                                                a.num_cases, a.chunk_states, a.slots, a.roots);
  }
  static bool two_pass(int block, const float* x, float* y, State* row_state, std::int64_t rows,
                       std::int64_t cols, void* stream) {
    return launch_online_two_pass<Op, TwoPassSchedule>(block, x, y, row_state, rows, cols,
                                                       static_cast<cudaStream_t>(stream));
  }
  /// The narrow types BF16 and F16 (the executor passes only these: validate_narrow_pairs).
  static void pairs_narrow(DType type, const State* a, const State* b, State* out, std::int64_t n) {
    if (type == DType::BF16)
      combine_pairs_narrow_kernel<Op, DType::BF16><<<blocks_for(n, 256), 256>>>(a, b, out, n);
    else
      combine_pairs_narrow_kernel<Op, DType::F16><<<blocks_for(n, 256), 256>>>(a, b, out, n);
  }
  static constexpr decltype(CombineDeviceOps::pairs_narrow) narrow_pairs_of() {
    if constexpr (runs_on_narrow_states<Op>::value)
      return &pairs_narrow;
    else
      return nullptr;
  }
  static constexpr CombineDeviceOps kOps{&pairs, &warp_reduce, &harness, &two_pass,
                                         narrow_pairs_of()};
};

}  // namespace osvs::cuda
