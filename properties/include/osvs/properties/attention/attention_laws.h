// The laws of attention's partial states, their merge and the split-KV decode
// (docs/semantics.md §8), as plain functions `Verdict check_xxx(const XxxCase&, const
// Under&)`. The kernel under test is a black box given as a callable: a merge
// (a, b, base) -> merged, or a decode (problem, plan) -> partials and result. Any merge kernel
// with the engines' signature (o_a, lse_a, o_b, lse_b) -> (o, lse) can be judged by wrapping it
// in a MergeUnderTest; osvs's own kernels enter through an AttentionExecutor (for_executor).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/kernels/attention/value_conventions.h"
#include "osvs/properties/verdict.h"

namespace osvs {

/// A merge-states kernel under test, the accuracy its bound assumes (device or host exp) and the
/// conventions it declares (value_conventions.h; osvs's own kernels: the canonical ones).
struct MergeUnderTest {
  std::string name;
  std::function<AttnStates(const AttnStates& a, const AttnStates& b, LseBase base)> merge;
  bool gpu = false;
  ValueConventions conventions;
};

/// A split-KV decode under test.
struct DecodeUnderTest {
  std::string name;
  std::function<DecodeResult(const DecodeProblem& p, const SplitPlan& plan)> decode;
  bool gpu = false;
};

MergeUnderTest merge_under_test(AttentionExecutor& executor);
DecodeUnderTest decode_under_test(AttentionExecutor& executor);

/// Partials of one shape (rows, head_dim, o type) to merge, and the choices of merge trees.
/// How a black-box merge kernel is handed the partials (api/merge_kernel.h's MergeProblem): the
/// rows as tokens x heads (heads divides rows), each head's o followed by head_pad unused
/// elements and each token's by token_pad more. The laws and the white-box executors, which see
/// rows, ignore it.
struct MergeShape {
  std::int64_t heads = 1;
  std::int64_t head_pad = 0;
  std::int64_t token_pad = 0;
  bool operator==(const MergeShape&) const = default;
};

struct MergeCase {
  std::vector<AttnStates> parts;  ///< two or more, same shape
  MergeShape shape;
  LseBase base = LseBase::E;
  std::vector<std::int64_t> tree_choices;   ///< raw choices for random_tree (first tree)
  std::vector<std::int64_t> other_choices;  ///< and for the second tree
};

/// A decode problem, two split plans of its KV sequence and a permutation of its keys.
struct DecodeCase {
  DecodeProblem problem;
  SplitPlan plan;
  SplitPlan other_plan;
  std::vector<std::int64_t> key_permutation;  ///< a permutation of 0 .. kv_len - 1
};

// Merge laws. Exact (bitwise): commutativity, identity, special values. Bounded: accuracy of one
// merge, associativity, tree invariance (oracle/attention_bounds.h).
Verdict check_merge_commutativity(const MergeCase& c, const MergeUnderTest& m);
Verdict check_merge_identity(const MergeCase& c, const MergeUnderTest& m);
Verdict check_merge_special_values(const MergeCase& c, const MergeUnderTest& m);
Verdict check_merge_accuracy(const MergeCase& c, const MergeUnderTest& m);
Verdict check_merge_associativity(const MergeCase& c, const MergeUnderTest& m);
Verdict check_merge_tree_invariance(const MergeCase& c, const MergeUnderTest& m);

// Decode laws. Bounded against the oracle: accuracy (result and every partial), partition
// invariance (two plans), permutation of the KV pairs. Exact: masked keys are never read and a
// fully masked query gives the empty result; special values (NaN / inf in q, k, v, scores).
Verdict check_decode_accuracy(const DecodeCase& c, const DecodeUnderTest& d);
Verdict check_decode_partition_invariance(const DecodeCase& c, const DecodeUnderTest& d);
Verdict check_decode_permutation(const DecodeCase& c, const DecodeUnderTest& d);
Verdict check_decode_masking(const DecodeCase& c, const DecodeUnderTest& d);
Verdict check_decode_special_values(const DecodeCase& c, const DecodeUnderTest& d);

/// Bitwise agreement of two executors on a decode (the portable build's promise: CPU model ==
/// GPU); not run in the default build, whose exp and log differ between the sides.
Verdict check_decode_agreement(const DecodeCase& c, const DecodeUnderTest& a,
                               const DecodeUnderTest& b);

}  // namespace osvs
