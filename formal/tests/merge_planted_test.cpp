// Planted changes in the attention merge (planted_merge_policies.h): a change that breaks a law
// makes its proof fail with a counterexample the CPU model (merge_states_model_with under the
// planted policy) reproduces; an equivalent change is still proven. And the log fact is needed:
// without log_b(2)'s value the merge's tie is not proven commutative.
#include <gtest/gtest.h>

#include "osvs/formal/attention_merge.h"
#include "osvs/formal/exp_facts.h"
#include "osvs/formal/prove.h"
#include "planted_merge_policies.h"

namespace osvs::formal {
namespace {

template <class Policy>
using PlantedMerge = AttentionMergeOf<LseBase::E, Policy>;

void expect_reproduced(const ProofResult& r) {
  std::cout << describe(r) << "\n";
  ASSERT_FALSE(r.proven) << describe(r);
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
}

// On a tie the second operand is big instead of the first: lse = b.lse + log(2) and o =
// fl(fl(o_a + o_b) / 2) either way (b^(+-0) = 1), so the change is equivalent, and proven so over
// every (lse, o).
TEST(MergePlanted, LessEqualIsAnEquivalentMutant) {
  const ProofResult r = prove<PlantedMerge<planted::LessEqual>>(Law::Commutativity, kEveryState);
  std::cout << describe(r) << "\n";
  EXPECT_TRUE(r.proven) << describe(r);
}

// Without the NaN guard a NaN lse meets an empty partial: merge(NaN, empty) keeps the NaN side's o
// (the empty one is small), merge(empty, NaN) takes the empty side as big and writes o = +0.
// The search fixes the lse's to (NaN, -inf) and the o's to 1, so that every model differs in o;
// with the o's free the solver may answer with a difference of the merged lse's NaN payloads
// alone, which x86 does not reproduce (so, over every (lse, o): a model-only counterexample after
// 8 refinements, about 60 s).
TEST(MergePlanted, NanGuardDroppedBreaksCommutativity) {
  Domain search;
  search.fixed_m = {osvs::canonical_nan(), -__builtin_huge_valf()};
  search.d_values = {1.0f};
  const ProofResult r = prove<PlantedMerge<planted::NanGuardDropped>>(Law::Commutativity, search);
  expect_reproduced(r);
  EXPECT_EQ(r.counterexample->lhs.d, 1.0f) << describe(r);  // the NaN side's o, kept
  EXPECT_EQ(osvs::float_bits(r.counterexample->rhs.d), 0u) << describe(r);  // both-empty's +0
}

// Without the small partial's -inf guard, x (+) empty weighs the empty side by b^(-inf - lse) = 0:
// lse = x.lse + log(1) = x.lse + 0, which turns an lse of -0 into +0 (and an o of -0 into +0).
TEST(MergePlanted, SmallEmptyGuardDroppedBreaksIdentity) {
  expect_reproduced(
      prove<PlantedMerge<planted::SmallEmptyGuardDropped>>(Law::IdentityRight, kAttentionPartial));
}

// The log facts (log_facts.h) are needed: without them log(2) is any float in the model, and on a
// tie of +0 and -0 the merged lse's +0 + log(2) and -0 + log(2) differ where it is -0 (the signs
// of the zero sums) or a NaN (the two NaN sums' payloads are free; z3 picks this one). Only the exp
// facts are kept, and no pin (a pin would state the log's value again).
TEST(MergePlanted, ProofNeedsTheLogFacts) {
  ProveOptions o;
  o.facts = exp_facts();
  o.pin_search_maxima = false;
  Domain zero_tie;  // the o's fixed too: the search is then about the log alone
  zero_tie.fixed_m = {0.0f, -0.0f};
  zero_tie.d_values = {1.0f, 2.0f};
  const ProofResult r = prove<AttentionMerge>(Law::Commutativity, zero_tie, o);
  std::cout << describe(r) << "\n";
  EXPECT_FALSE(r.proven) << describe(r);
  // With them, the same tie is proven.
  ProveOptions with_logs;
  with_logs.pin_search_maxima = false;
  const ProofResult proven = prove<AttentionMerge>(Law::Commutativity, zero_tie, with_logs);
  EXPECT_TRUE(proven.proven) << describe(proven);
}

}  // namespace
}  // namespace osvs::formal
