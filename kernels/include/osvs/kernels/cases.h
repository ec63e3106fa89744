// Cases and outcomes: the plain data an executor consumes and produces.
//
// Every input is bit-exact float data; nothing here knows about generators, files or GPUs, so the
// same case can come from RapidCheck, from fuzzer bytes or from a regression file.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "osvs/kernels/combine_kind.h"
#include "osvs/kernels/enum_names.h"
#include "osvs/kernels/state.h"

namespace osvs {

/// The softmax kernels under test.
enum class KernelKind {
  TwoPass,    ///< the seed's online 2-pass kernel (int indexing, as written) or, with the
              ///< hardened combine, the hardened kernel (real identity, 64-bit indexing)
  ThreePass,  ///< safe-softmax baseline: max pass, sum pass, write pass (combine unused)
  Fast,       ///< the row held on chip (a warp, a block, or the blocks of a split row, each its
              ///< chunk in registers), one read and one write of HBM; hardened combine only
              ///< (fast_plan.h, fast_schedule.h); the block size is its plan's, not the batch's
};

/// The one-block-per-row kernels of the lesson, whose batch block size is their launch's.
inline constexpr KernelKind kAllKernels[] = {KernelKind::TwoPass, KernelKind::ThreePass};

inline constexpr EnumName<KernelKind> kKernelNames[] = {{KernelKind::TwoPass, "two_pass"},
                                                        {KernelKind::ThreePass, "three_pass"},
                                                        {KernelKind::Fast, "fast"}};

inline const char* to_string(KernelKind k) {
  return name_in(kKernelNames, k);
}

inline std::optional<KernelKind> parse_kernel(std::string_view s) {
  return value_in(kKernelNames, s);
}

/// Deliberate structural bugs (mutation testing, reports/mutation/). Each applies to one kernel
/// (mutated_kernel) with the hardened combine, so a kill is due to the mutation alone.
enum class KernelMutation {
  None,
  ShuffleFromOffset8,       ///< shuffle tree starts at offset 8: lanes 16..31 never reach lane 0
  ShuffleUp,                ///< __shfl_up_sync instead of __shfl_down_sync
  NoSyncBeforeSharedStage,  ///< __syncthreads() missing before warp 0 reads shared memory
  NoSyncBeforeBroadcast,    ///< __syncthreads() missing before every thread reads the result
  NoLaneGuard,              ///< `lane < NUM_WARPS` removed: warp 0 reads unwritten slots
  PerWarpDivisor,           ///< pass 2 divides by its warp's state instead of the row's
  SkipLastElement,          ///< stride loop stops at N - 1
  Int32Index,               ///< `row * N` in int (wrong for rows * cols >= 2^31)
  // The fast kernel's (fast_schedule.h):
  FastLostChunk,    ///< the cross-block merge of a split row stops one chunk short
  FastSkippedTail,  ///< only whole float4s are loaded: the row's last n % 4 elements never are
  FastPrefixMerge,  ///< block c merges chunk states 0 .. c only (a scan's order, not a reduction's)
};

inline constexpr KernelMutation kAllKernelMutations[] = {KernelMutation::ShuffleFromOffset8,
                                                         KernelMutation::ShuffleUp,
                                                         KernelMutation::NoSyncBeforeSharedStage,
                                                         KernelMutation::NoSyncBeforeBroadcast,
                                                         KernelMutation::NoLaneGuard,
                                                         KernelMutation::PerWarpDivisor,
                                                         KernelMutation::SkipLastElement,
                                                         KernelMutation::Int32Index};

inline constexpr EnumName<KernelMutation> kKernelMutationNames[] = {
    {KernelMutation::None, "none"},
    {KernelMutation::ShuffleFromOffset8, "shuffle_from_offset_8"},
    {KernelMutation::ShuffleUp, "shuffle_up"},
    {KernelMutation::NoSyncBeforeSharedStage, "no_sync_before_shared_stage"},
    {KernelMutation::NoSyncBeforeBroadcast, "no_sync_before_broadcast"},
    {KernelMutation::NoLaneGuard, "no_lane_guard"},
    {KernelMutation::PerWarpDivisor, "per_warp_divisor"},
    {KernelMutation::SkipLastElement, "skip_last_element"},
    {KernelMutation::Int32Index, "int32_index"},
    {KernelMutation::FastLostChunk, "fast_lost_chunk"},
    {KernelMutation::FastSkippedTail, "fast_skipped_tail"},
    {KernelMutation::FastPrefixMerge, "fast_prefix_merge"},
};

/// The fast kernel's mutations.
inline constexpr KernelMutation kFastKernelMutations[] = {KernelMutation::FastLostChunk,
                                                          KernelMutation::FastSkippedTail,
                                                          KernelMutation::FastPrefixMerge};

/// The kernel a mutation applies to (None: any).
inline constexpr KernelKind mutated_kernel(KernelMutation m) {
  return m == KernelMutation::FastLostChunk || m == KernelMutation::FastSkippedTail ||
                 m == KernelMutation::FastPrefixMerge
             ? KernelKind::Fast
             : KernelKind::TwoPass;
}

inline const char* to_string(KernelMutation m) {
  return name_in(kKernelMutationNames, m);
}

inline std::optional<KernelMutation> parse_mutation(std::string_view s) {
  return value_in(kKernelMutationNames, s);
}

/// Whether the CPU model can replay a mutation. Races, uninitialised shared memory and 32-bit
/// overflow at 2^31 elements exist only on the device.
inline constexpr bool modelled_on_cpu(KernelMutation m) {
  return m == KernelMutation::None || m == KernelMutation::ShuffleFromOffset8 ||
         m == KernelMutation::ShuffleUp || m == KernelMutation::PerWarpDivisor ||
         m == KernelMutation::SkipLastElement || mutated_kernel(m) == KernelKind::Fast;
}

/// A batch of rows, row-major, for one kernel configuration.
struct SoftmaxBatch {
  KernelKind kernel = KernelKind::TwoPass;
  CombineKind combine = CombineKind::Seed;
  int block = 256;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<float> x;                            ///< rows * cols values
  KernelMutation mutation = KernelMutation::None;  ///< mutation runs only
};

/// Per-row reduction result and the outputs of a softmax batch.
struct SoftmaxResult {
  std::vector<float> y;          ///< rows * cols outputs
  std::vector<State> row_state;  ///< 2-pass: the row's (m, d); 3-pass: (max, sum)
};

/// A schedule for the combine harness: a partition of a row into contiguous chunks, the order in
/// which chunks are placed into slots, and a sequence of merges slot[dst] = slot[dst] (+)
/// slot[src].
struct Merge {
  std::int32_t dst;
  std::int32_t src;
};

struct HarnessCase {
  std::vector<float> row;
  std::vector<std::int64_t> chunk_offsets;  ///< k + 1 non-decreasing offsets, 0 ... row.size()
  std::vector<std::int32_t> slot_chunk;     ///< slot s starts as the state of chunk slot_chunk[s]
  std::vector<Merge> merges;                ///< applied in order
  std::int32_t root = 0;                    ///< slot holding the result
};

struct HarnessBatch {
  CombineKind combine = CombineKind::Seed;
  std::vector<HarnessCase> cases;
  bool want_chunk_states = false;
};

struct HarnessResult {
  std::vector<State> root;                       ///< one per case
  std::vector<std::vector<State>> chunk_states;  ///< per case, per chunk (when requested)
};

}  // namespace osvs
