// The laws of a combine operator (combine_kernel.h) and the case they are judged on: the
// combine-level inputs of the property suite's laws (osvs/properties/suite.h combine_laws),
// states for the algebraic laws, a row and its schedules for the warp's shuffle tree and tree
// invariance. The laws are the suite's properties of the same names (properties/registry.h),
// run on the executor of the kernel's side.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "osvs/api/combine_kernel.h"
#include "osvs/api/kind_law.h"
#include "osvs/kernels/cases.h"
#include "osvs/kernels/combine_kind.h"
#include "osvs/kernels/dtype.h"

namespace osvs {

/// What a combine law reads (the rest of the suite's Case is the softmax kernel's and unused).
struct CombineCase {
  /// identity_right, identity_left, finite_identity: states s; commutativity: pairs (a, b).
  std::vector<State> states;
  /// The type the states are stored in and the combine rounded to (F32, BF16 or F16).
  DType state_format = DType::F32;
  /// warp_reduce, tree_invariance: rows[0], the row reduced.
  std::vector<std::vector<float>> rows;
  /// warp_reduce: one schedule of 32 chunks (a lane each); tree_invariance: two schedules of
  /// rows[0] (their `row` fields are ignored).
  std::vector<HarnessCase> schedules;
};

using CombineLaw = KindLaw<CombineKernel, CombineCase>;

/// Every combine law, cheapest first: identity_right, identity_left, finite_identity,
/// commutativity, warp_reduce, tree_invariance (law_names.h kCombineLawNames). A law the
/// operator does not claim (its declarations) is excluded, unless the kernel declares it a known
/// defect.
const std::vector<CombineLaw>& combine_operator_laws();

/// The handle of k's operator in this process's combine registry, registering it on first use
/// (a plugin's operator, say); throws std::invalid_argument when another operator has its name.
CombineKind combine_handle(const CombineKernel& k);

/// A host kernel runs here always, a device kernel where a CUDA device is.
bool runnable(const CombineKernel& k, std::string* why_not);

/// "2 states, f32" or "a row of 37 elements, 2 schedules".
std::string case_summary(const CombineCase& c);

/// The case as its regression file's input (hex floats), for RapidCheck's counterexamples.
void showValue(const CombineCase& c, std::ostream& os);

/// An operator's declaration: where it runs, its claims, the shape of its derived bound.
std::string kernel_summary(const CombineKernel& k);

}  // namespace osvs
