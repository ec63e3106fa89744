// The merge laws of a MergeKernel: the properties' black-box merge laws
// (osvs/properties/attention/attention_laws.h) by name, the adapter that turns a registered
// kernel into the properties' MergeUnderTest, and the fitting of generated cases to what the
// kernel declares (its o types and lse bases).
#pragma once

#include <string>
#include <vector>

#include "osvs/api/kind_law.h"
#include "osvs/api/merge_kernel.h"
#include "osvs/properties/attention/attention_laws.h"

namespace osvs {

/// A merge law's check fits c to k (fit_to) and runs through merge_under_test(k); large_batch,
/// opt-in, has one fixed case per kernel and runs through run_generated_merge.
using MergeLaw = KindLaw<MergeKernel, MergeCase>;

/// Every merge law, exact ones first: commutativity, identity, special_values, accuracy,
/// associativity, tree_invariance, then the opt-in large_batch.
const std::vector<MergeLaw>& merge_laws();

/// The law named `name`, or nullptr.
const MergeLaw* find_merge_law(const std::string& name);

/// k as a MergeUnderTest: every merge runs through run_merge_kernel (merge_runner.h), the laws'
/// empty partials (lse -inf) handed over in the kernel's representation and its results read
/// back into -inf; bounds assume device exp / log accuracies for a Where::Device kernel.
/// `shape` lays the rows out for the kernel (MergeShape).
MergeUnderTest merge_under_test(const MergeKernel& k, const MergeShape& shape = {});

/// c fitted to k: a base k does not declare becomes its first base, an o type it does not take
/// its first o type (every o rounded to it), a head_dim it does not take the nearest it takes
/// (each row's components repeated or cut), heads that do not divide the rows 1, and padding it
/// did not declare (o_strided) none.
MergeCase fit_to(const MergeKernel& k, MergeCase c);

}  // namespace osvs
