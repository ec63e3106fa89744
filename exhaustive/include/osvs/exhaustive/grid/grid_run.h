// The two executors of the combine grid (exhaustive/README.md, "The combine grid"): the CPU model
// (the entry's host.combine, on every host thread) and the GPU (the entry's device `pairs`
// launcher on pairs generated on the device, checked there; only counters and the flags of a
// chunk that holds a wanted counterexample come back).
#pragma once

#include <string>

#include "osvs/exhaustive/grid/grid_result.h"
#include "osvs/kernels/combine_kind.h"

namespace osvs::exhaustive::grid {

/// The operator's declarations decide which laws are held (grid_check.h): commutativity and
/// identity when claimed, the finite identity and the one-step bound always.
GridResult run_grid_on_host(CombineKind op, const GridSpec& spec);

/// Throws std::runtime_error without a device (or on any CUDA error), InvalidLaunch for an
/// operator without device code.
GridResult run_grid_on_device(CombineKind op, const GridSpec& spec);

/// Whether a CUDA device is present (and, when not, why).
bool grid_device_present(std::string* why_not);

/// A result with the declarations of op filled in (shared by both executors).
GridResult empty_result(CombineKind op, const GridSpec& spec, const char* executor, double exp_ulp);

/// Fills the result's laws from a tally (finishing it) and which of them op holds.
void take_tally(GridResult& r, GridTally& t, CombineKind op);

}  // namespace osvs::exhaustive::grid
