// Case generators, one per family of properties, composed from the row, state and schedule
// generators; the kernel configuration is fixed by the caller, the block size is generated.
#pragma once

#include <rapidcheck.h>

#include <string>

#include "osvs/properties/case.h"
#include "osvs/properties/gen/rows.h"

namespace osvs::gen {

/// A kernel configuration family under test.
struct Config {
  KernelKind kernel = KernelKind::TwoPass;
  CombineKind combine = CombineKind::Hardened;
  std::string mutant;  ///< a softmax mutant's name (Case::mutant), copied into every case
};

/// A Case whose states come from `states` (combine-level laws).
rc::Gen<Case> states_case(CombineKind combine, rc::Gen<std::vector<State>> states);

/// A finite row with a 32-chunk partition reduced by the warp's shuffle tree.
rc::Gen<Case> warp_case(CombineKind combine);

/// A finite row with two independent schedules (partition, order, tree).
rc::Gen<Case> tree_case(CombineKind combine);

/// A batch of rows from `rows` on a generated block size.
rc::Gen<Case> softmax_case(Config cfg, rc::Gen<std::vector<Row>> rows);

/// A finite non-empty row and a permutation of its indices.
rc::Gen<Case> permutation_case(Config cfg);

/// A row and a shift exact on it (shiftable_row: magnitudes far beyond |x| < 128).
rc::Gen<Case> shift_case(Config cfg);

/// 1..4 rows (finite or special) with a batch size 1..9 and a position in it.
rc::Gen<Case> batch_case(Config cfg);

}  // namespace osvs::gen

#include "osvs/properties/gen/cases.hpp"
