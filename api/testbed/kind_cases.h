// Each kind's cases for the law runs (law_run.h): the generator a law's cases come from, shaped
// by the kernel's declaration, the cases its declaration makes every run judge (its layouts), and
// the structural reductions of a failing case that RapidCheck's
// shrinking cannot make (it never shortens a drawn length without regenerating every value after
// it). Adding a kind adds its overloads here.
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "osvs/api/kind.h"

namespace osvs::testbed {

/// How a reduction offers a smaller case: accept(candidate) judges it and keeps it (true) when
/// the law still fails; out_of_time() says the shrinking budget is spent.
template <class Case>
struct Reduction {
  std::function<bool(const Case&)> accept;
  std::function<bool()> out_of_time;
};

/// c with element i of its vector `field` erased (a row, a partial).
template <class Case, class T>
Case without_element(const Case& c, std::vector<T> Case::*field, std::size_t i) {
  Case out = c;
  auto& v = out.*field;
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
  return out;
}

/// The cases a kernel's declaration makes every run judge before its random ones: none, unless
/// its kind has an overload below (row kernels: their layouts; attention kernels: their tiles).
template <class Kernel, class Case>
std::vector<Case> declared_cases(const Kernel&, const KindLaw<Kernel, Case>&) {
  return {};
}

/// Row kernels: the cases of row_case(k, law.name) (osvs/api/row_cases.h).
rc::Gen<RowCase> law_cases(const RowKernel& k, const RowLaw& law);

/// Row kernels: a row of each of k's layout lengths (row_layouts.h), judged by every run of a law
/// whose cases are batches of rows (not large_batch, shift_invariance, permutation) before its
/// random cases: finite values drawn from a seed of their own, so each run judges the same rows.
std::vector<RowCase> declared_cases(const RowKernel& k, const RowLaw& law);

/// Row kernels: fewer rows; fewer columns, the same ones from every row, in chunks halving from
/// half the row down to one (ddmin); a smaller batch around the subject row. `smallest` is the
/// case being reduced, updated in place by each accepted candidate.
void reduce_case(const RowKernel& k, const RowCase& smallest, const Reduction<RowCase>& r);

/// Merge kernels: gen::merge_case() fitted to k's declaration (fit_to); large_batch's one case.
rc::Gen<MergeCase> law_cases(const MergeKernel& k, const MergeLaw& law);

/// Merge kernels (the merge works row by row and component by component): one row, then one
/// component, then fewer partials.
void reduce_case(const MergeKernel& k, const MergeCase& smallest, const Reduction<MergeCase>& r);

/// Attention kernels: problems drawn from k's declaration (attention_cases.cpp).
rc::Gen<AttentionCase> law_cases(const AttentionKernel& k, const AttentionLaw& law);

/// Attention kernels: for accuracy and determinism, the ragged last tile at every residue of each
/// declared tile size (tile_sizes), values from a seed of their own.
std::vector<AttentionCase> declared_cases(const AttentionKernel& k, const AttentionLaw& law);

/// Attention kernels: fewer sequences, then fewer keys and queries of each, one kv head, a
/// smaller head_dim, no spare pages; last, each dimension one smaller with the values drawn
/// again from the case's own (a failure one rounding decides, as a kernel's own exp makes it).
void reduce_case(const AttentionKernel& k, const AttentionCase& smallest,
                 const Reduction<AttentionCase>& r);

/// State reductions: rows in k's declared domain (ties, mixed magnitudes, a large common offset;
/// up to 40 elements, at times 250 ... 599) under a random schedule (gen::schedule), folded in one
/// chunk for accuracy; the special values law's one grid.
rc::Gen<ReductionCase> law_cases(const ReductionKernel& k, const ReductionLaw& law);

/// State reductions: the one-chunk schedule of the row, fewer elements (in blocks halving down to
/// one, each chunk keeping the rest of its own), simpler values (0, 1, the value truncated).
void reduce_case(const ReductionKernel& k, const ReductionCase& smallest,
                 const Reduction<ReductionCase>& r);

/// Row-wise kernels: batches of the forward's outputs (softmax y, log-softmax z of random logits)
/// and upstream gradients (small integers, mixed magnitudes, a common offset that makes dx
/// cancel), up to 40 elements and at times 100 ... 600; row 0 masked (empty_rows) or holding NaN
/// and infinities (special_values); paddings, batch positions, permutations for the invariances.
rc::Gen<RowwiseCase> law_cases(const RowwiseKernel& k, const RowwiseLaw& law);

/// Row-wise kernels: fewer rows (row 0 stays), fewer columns of every input (in chunks halving
/// down to one), simpler upstream gradients (0, 1, the value truncated).
void reduce_case(const RowwiseKernel& k, const RowwiseCase& smallest,
                 const Reduction<RowwiseCase>& r);

/// Combine operators: the property suite's generator of the law (osvs/properties/suite.h
/// combine_laws: well-formed and finite-maximum states, pairs of states, a row under a warp's
/// schedule or two random schedules) for k's operator.
rc::Gen<CombineCase> law_cases(const CombineKernel& k, const CombineLaw& law);

/// Combine operators: fewer states (a pair at a time for commutativity); a row and its schedules
/// are left to RapidCheck's shrinking (a warp's schedule must keep its 32 chunks).
void reduce_case(const CombineKernel& k, const CombineCase& smallest,
                 const Reduction<CombineCase>& r);

}  // namespace osvs::testbed
