// The laws of a state reduction (reduction_kernel.h) and the case they are judged on: a row and
// a schedule of it (a partition into chunks, the chunks' order in slots, a merge tree).
#pragma once

#include <string>
#include <vector>

#include "osvs/api/kind_law.h"
#include "osvs/api/reduction_kernel.h"
#include "osvs/kernels/cases.h"

namespace osvs {

/// A row and one schedule of it (kernels/cases.h HarnessCase: row, chunk_offsets, slot_chunk,
/// merges, root). Each law reads the schedule as its sentence says.
struct ReductionCase {
  HarnessCase schedule;
};

/// Why a schedule cannot run, or "": offsets not 0 ... n non-decreasing, a slot naming no chunk,
/// a merge or the root naming no slot.
std::string schedule_problem(const HarnessCase& h);

/// The most combines on a path from an element to h's root: a chunk of k elements folds them by
/// k combines from the identity, each merge adds one to its receiving slot's.
int schedule_depth(const HarnessCase& h);

/// h's chunk `i` alone, as a schedule of one chunk.
HarnessCase chunk_schedule(const HarnessCase& h, std::size_t i);

/// The schedule folding `row` left to right in one chunk.
HarnessCase whole_row_schedule(std::vector<float> row);

using ReductionLaw = KindLaw<ReductionKernel, ReductionCase>;

/// Every reduction law, exact ones first: commutativity, identity, special_values, accuracy,
/// associativity, and cpu_model (where a CPU model is declared: its bits).
const std::vector<ReductionLaw>& reduction_laws();

/// The schedules' root states and finalised results from k: states[i] and results[i] are the
/// fields' bits of schedule i. Throws KernelFailure naming k when it writes other counts.
struct ReductionOutputs {
  std::vector<std::vector<std::uint64_t>> states;
  std::vector<std::vector<std::uint64_t>> results;
};
ReductionOutputs run_reduction_kernel(const ReductionKernel& k,
                                      const std::vector<HarnessCase>& schedules);

/// A reduction kernel runs here: a host one always, a device one where a device is.
bool runnable(const ReductionKernel& k, std::string* why_not);

}  // namespace osvs
