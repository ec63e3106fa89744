// Judging the root state of a combine schedule against the oracle: m exact, d within the
// schedule's derived bound.
#pragma once

#include <string>

#include "osvs/kernels/cases.h"
#include "osvs/oracle/reference.h"
#include "osvs/properties/verdict.h"

namespace osvs::props {

/// `root` is the result of schedule `hc` (its row filled in) run with `combine`. Finite rows: m ==
/// ref.m bitwise and |d - ref.d| within harness_d_bound; an empty row: root is the operator's
/// initial state bitwise. A mutant is held to the bound and initial state of its original. Other
/// rows (NaN, +inf, all -inf) are outside the domain: the verdict is vacuous.
Verdict judge_root(State root, const oracle::RowReference& ref, const HarnessCase& hc,
                   CombineKind combine, double exp_ulp, const std::string& what);

}  // namespace osvs::props
