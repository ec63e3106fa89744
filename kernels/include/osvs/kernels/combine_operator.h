// CombineOperator: one registered combine operator, as the executors, bounds and laws see it.
//
// An operator is a type with static initial / lift / combine / output (usable on host and
// device) and its declarations (combine_declaration.h lists them). combine_operator<Op>()
// (combine_host_ops.h) turns it into this entry: its declarations, the CPU model of every order
// osvs runs it in (pairs, a warp's shuffle tree, the harness's partitions and merge trees, the
// 2-pass softmax kernel around it), and, when the registering file is compiled by nvcc, the device
// launchers of the same orders (cuda/combine_device_ops.cuh). The orders are written once
// (block_schedule.h, harness_model.h, cuda/*.cuh); an entry only instantiates them for its Op.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/combine_kind.h"
#include "osvs/kernels/dtype.h"

namespace osvs {

/// The CPU model of each order, instantiated for one operator.
struct CombineHostOps {
  State (*initial)();
  State (*lift)(float);
  State (*combine)(State, State);
  float (*output)(float, State);
  /// Lane 0's result of one warp's __shfl_down_sync tree over 32 states.
  State (*warp_reduce)(const State* lanes);
  /// A harness case's root (and, when asked, its chunk states).
  State (*harness_case)(const HarnessCase& c, std::vector<State>* chunk_states);
  /// The 2-pass kernel's outputs and row states for a validated batch (model_two_pass_rows).
  void (*two_pass_rows)(const SoftmaxBatch& b, SoftmaxResult& r);
  /// a (+) b with the states stored in a narrow type (BF16 or F16: narrow_float.h's combine_in),
  /// the states' fields values of that type; nullptr for an operator that runs on float states
  /// only (runs_on_narrow_states).
  State (*combine_narrow)(DType type, State a, State b);
};

/// The arrays of a batch of harness cases on the device (layout: cuda/combine_kernels.cuh).
struct DeviceHarnessArgs {
  const float* values;
  const std::int64_t* chunk_offsets;
  const std::int32_t* slot_chunk;
  const Merge* merges;
  const void* cases;  ///< cuda::DeviceHarnessCase[num_cases]
  std::int64_t num_cases;
  State* chunk_states;
  State* slots;
  State* roots;
};

/// Device launchers of each order for one operator: they enqueue the kernel on the default
/// stream (the 2-pass kernel on `stream`) and return; the executor checks the launch.
struct CombineDeviceOps {
  void (*pairs)(const State* a, const State* b, State* out, std::int64_t n);
  void (*warp_reduce)(const State* lanes, State* out, std::int64_t groups);
  void (*harness)(const DeviceHarnessArgs& args);
  /// The 2-pass softmax kernel with this operator; false for an unsupported block size.
  bool (*two_pass)(int block, const float* x, float* y, State* row_state, std::int64_t rows,
                   std::int64_t cols, void* stream);
  /// pairs with the states stored in BF16 or F16 (narrow_float.h); nullptr as for
  /// CombineHostOps::combine_narrow.
  void (*pairs_narrow)(DType type, const State* a, const State* b, State* out, std::int64_t n);
};

struct CombineOperator {
  const char* name;
  CombineAlgebra algebra;           ///< declared; a mutant's is its original's
  bool masked_row_zero;             ///< declared: a fully masked row gives 0s (true) or NaNs
  bool int32_two_pass_index;        ///< its 2-pass kernel indexes in int (the seed as written)
  const CombineOperator* original;  ///< the operator a mutant was derived from; nullptr if real
  const char* defect;               ///< a mutant's bug, in words; nullptr for a real operator
  CombineHostOps host;
  const CombineDeviceOps* device;  ///< nullptr: registered from host code (no device launchers)
};

/// Adds a user's operator to the registry and returns its handle. Throws std::invalid_argument
/// for a name already registered (osvs's own included) or an empty name. `op` must outlive the
/// program (OSVS_REGISTER_COMBINE gives it static storage).
CombineKind register_combine(const CombineOperator* op);

/// The device launchers of k, or throws InvalidLaunch naming the operator when it has none.
const CombineDeviceOps& device_ops(CombineKind k);

}  // namespace osvs
