// Kernels that exercise a combine operator directly: pairs, one warp's shuffle tree, and the
// harness that runs any given partition + merge order on the device (for a combine operator and
// for a state reduction alike).
#pragma once

#include <cstdint>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/cases.h"
#include "osvs/kernels/cuda/block_reduce.cuh"
#include "osvs/kernels/harness_flat.h"
#include "osvs/kernels/lift_with_index.h"
#include "osvs/kernels/narrow_float.h"

namespace osvs::cuda {

template <class Op>
__global__ void combine_pairs_kernel(const State* a, const State* b, State* out, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Op::combine(a[i], b[i]);
}

/// combine_pairs_kernel with the states stored in T (narrow_float.h): the same operator source
/// on NarrowState<T>.
template <class Op, DType T>
__global__ void combine_pairs_narrow_kernel(const State* a, const State* b, State* out,
                                            std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = combine_in<Op, T>(a[i], b[i]);
}

/// One warp per group of 32 states; lane 0 writes the shuffle tree's result. Warps past the last
/// group still take part in the shuffles (full mask) but write nothing.
template <class Op>
__global__ void warp_reduce_kernel(const State* lanes, State* out, std::int64_t groups) {
  const std::int64_t warp = (std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / kWarpSize;
  const int lane = threadIdx.x & (kWarpSize - 1);
  const bool active = warp < groups;
  State v = active ? lanes[warp * kWarpSize + lane] : Op::initial();
  v = warp_reduce(v, OnlineAlg<Op>{});
  if (active && lane == 0) out[warp] = v;
}

/// Flattened description of one harness case (offsets into the batch's shared arrays).
using DeviceHarnessCase = FlatHarnessCase;

/// The harness, over any algebra of the harness's order (kernels/harness_model.h): value_type,
/// initial, lift (with the element's index in its row when the algebra takes it, as a state
/// reduction's does: api/state_reduction.h ReductionAlg) and combine; a combine operator Op runs
/// as OnlineAlg<Op>. One thread per case: the chunk states by sequential lift (as a thread's
/// stride loop does), then the merges in exactly the given order, the order the CPU model runs
/// (model_harness_case).
template <class Alg>
__global__ void harness_kernel(const float* values, const std::int64_t* chunk_offsets,
                               const std::int32_t* slot_chunk, const Merge* merges,
                               const DeviceHarnessCase* cases, std::int64_t num_cases,
                               typename Alg::value_type* chunk_states,
                               typename Alg::value_type* slots, typename Alg::value_type* roots) {
  using V = typename Alg::value_type;
  const Alg alg{};
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= num_cases) return;
  const DeviceHarnessCase c = cases[i];
  const float* row = values + c.row_begin;
  const std::int64_t* off = chunk_offsets + c.chunk_begin + i;  // each case has chunks + 1 offsets
  V* chunk = chunk_states + c.chunk_begin;
  for (std::int32_t k = 0; k < c.num_chunks; ++k) {
    V v = alg.initial();
    for (std::int64_t j = off[k]; j < off[k + 1]; ++j) {
      if constexpr (kLiftTakesIndex<Alg>)
        v = alg.combine(v, alg.lift(row[j], j));
      else
        v = alg.combine(v, alg.lift(row[j]));
    }
    chunk[k] = v;
  }
  V* slot = slots + c.slot_begin;
  for (std::int32_t s = 0; s < c.num_slots; ++s) slot[s] = chunk[slot_chunk[c.slot_begin + s]];
  for (std::int32_t k = 0; k < c.num_merges; ++k) {
    const Merge m = merges[c.merge_begin + k];
    slot[m.dst] = alg.combine(slot[m.dst], slot[m.src]);
  }
  roots[i] = slot[c.root];
}

}  // namespace osvs::cuda
