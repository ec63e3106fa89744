// A ReductionKernel declared from Python (osvs/_reduction.py): a state reduction whose CPU model
// is Python's. A launch calls call(schedules) with the launch's schedules flattened
// (kernels/harness_flat.h) into a dict of NumPy arrays: "values" (float32, every row),
// "chunk_offsets" (int64, each schedule's chunks + 1 offsets in turn), "slot_chunk" (int32),
// "merge_dst" and "merge_src" (int32, every schedule's merges in turn) and, one entry a schedule,
// "row_begin", "chunk_begin", "slot_begin", "merge_begin", "num_chunks", "num_slots",
// "num_merges", "root" (int64); it returns (states, results), uint64 arrays of shape
// (schedules, state fields) and (schedules, result fields) of the fields' bits (state_fields.h).
// The declaration's "reference" (row -> one value per result field) is the exact reference and
// its "tolerance" None (exact), one absolute tolerance per result field, or
// f(field, row, depth, exact) -> tolerance. A declaration with a field type that is none of
// float32, float64, int8 ... int64, uint8 ... uint64 is refused. Its case as a dict: the row and
// its reduction order (add_schedule). A reduction declares its exact reference (and tolerance,
// else exact results): nothing is left undeclared.
#pragma once

#include <nanobind/nanobind.h>

#include "osvs/api/kind.h"
#include "py_kind_side.h"

namespace osvs::python {

PythonSide<ReductionKind> python_side(ReductionKind);

/// A reduction order's fields into d: chunk_offsets, slot_chunk, merges ((dst, src) each), root
/// (the reduction kind's case, and each schedule of a combine case).
void add_schedule(nb::dict& d, const HarnessCase& h);

}  // namespace osvs::python
