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

/// A batch of rows, row-major, for one kernel configuration.
struct SoftmaxBatch {
  KernelKind kernel = KernelKind::TwoPass;
  CombineKind combine = CombineKind::Seed;
  int block = 256;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<float> x;  ///< rows * cols values
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
