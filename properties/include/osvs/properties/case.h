// Case: the one input type every property takes, whichever driver produced it (RapidCheck, fuzzer
// bytes, a regression file). Plain, bit-exact data; a property reads the fields it needs and
// ignores the others. Serialised by replay/ with every float as a hex float.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/dtype.h"

namespace osvs {

struct Case {
  // --- the kernel configuration under test
  KernelKind kernel = KernelKind::TwoPass;
  CombineKind combine = CombineKind::Hardened;
  int block = 256;
  /// Mutation testing: the name of a registered softmax mutant (osvs/kernels/softmax_mutants.h,
  /// mutation/'s kernel mutants) that runs in place of `kernel` (check_case); empty for the
  /// kernels under test. A regression file keeps it under the key "mutation".
  std::string mutant;

  // --- softmax-level inputs: rows of equal length (a batch); one row is the common case
  std::vector<std::vector<float>> rows;

  // --- combine-level inputs: states for the algebraic laws (a, b[, c]) or 32 lanes of a warp
  std::vector<State> states;
  /// The type the states are stored in, and the combine's arithmetic rounded to: F32 (the
  /// kernels'), or BF16 / F16 (narrow_float.h: each field of `states` a value of that type, as a
  /// float). The laws that combine states directly (PropertyInfo::narrow_states) take it; a
  /// regression file keeps it under the key "state_format", written when not F32.
  DType state_format = DType::F32;

  // --- schedule inputs for partition / ordering / tree invariance: two schedules of rows[0]
  //     (chunk_offsets, slot_chunk, merges, root of each), compared with each other and the oracle
  std::vector<HarnessCase> schedules;  // their `row` fields are ignored; rows[0] is used

  // --- transformation parameters
  std::vector<std::int64_t> permutation;  ///< a permutation of rows[0]'s indices
  float shift = 0.0f;                     ///< c in softmax(x + c) = softmax(x)
  std::int64_t batch_position = 0;        ///< where rows[0] sits in a larger batch
  std::int64_t batch_rows = 1;            ///< M of that larger batch
};

}  // namespace osvs
