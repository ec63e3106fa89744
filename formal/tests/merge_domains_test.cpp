// Where the attention merge's identity does not hold: each exclusion of the domain `partial`
// (domain.h) is needed, and the solver's counterexample outside it is one the CPU model
// (merge_states_model_with) reproduces. Each search fixes the state's lse to the value excluded
// (its o stays free, as does the identity's o).
#include <gtest/gtest.h>

#include <cmath>

#include "osvs/formal/attention_merge.h"
#include "osvs/formal/prove.h"

namespace osvs::formal {
namespace {

constexpr float kInf = __builtin_huge_valf();

ProofResult identity_with_lse(Law law, float lse) {
  Domain d;
  d.fixed_m = {lse};
  const ProofResult r = prove<AttentionMerge>(law, d);
  std::cout << describe(r) << "\n";
  return r;
}

void expect_reproduced(const ProofResult& r) {
  ASSERT_FALSE(r.proven) << describe(r);
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
}

// A +inf lse merges to the canonical NaN row (docs/semantics.md §8), so it is no identity's
// operand.
TEST(MergeDomains, PlusInfLseIsNoIdentityOperand) {
  for (Law law : {Law::IdentityLeft, Law::IdentityRight}) {
    const ProofResult r = identity_with_lse(law, kInf);
    expect_reproduced(r);
    EXPECT_TRUE(std::isnan(r.counterexample->lhs.m)) << describe(r);
  }
}

// A NaN lse gives the canonical NaN row: the law holds only for that row, not for another o.
TEST(MergeDomains, NanLseHoldsOnlyAsTheCanonicalRow) {
  const ProofResult r = identity_with_lse(Law::IdentityLeft, osvs::canonical_nan());
  expect_reproduced(r);
  EXPECT_NE(osvs::float_bits(r.counterexample->a.d), osvs::float_bits(osvs::canonical_nan()))
      << describe(r);
}

// Two empty partials give o = +0 whatever they held: an empty operand's o comes back only as +0.
TEST(MergeDomains, EmptyOperandComesBackWithOPlusZero) {
  const ProofResult r = identity_with_lse(Law::IdentityRight, -kInf);
  expect_reproduced(r);
  EXPECT_EQ(osvs::float_bits(r.counterexample->lhs.d), 0u) << describe(r);
  EXPECT_NE(osvs::float_bits(r.counterexample->a.d), 0u) << describe(r);
}

}  // namespace
}  // namespace osvs::formal
