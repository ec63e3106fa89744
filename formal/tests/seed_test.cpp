// The seed's FMA contraction, found by the solver from the seed's own source: nvcc fuses the left
// product of d1 * e1 + d2 * e2 (fp_model.h), so a (+) b and b (+) a round differently. The model's
// states, run through the seed's float combine on this machine (glibc exp, the CPU model's
// contraction), differ bit for bit. Without the contraction (--fmad=false) the solver proves it
// commutative over the same states: the contraction is the whole defect.
#include <gtest/gtest.h>

#include "osvs/formal/operators.h"

namespace osvs::formal {
namespace {

const LawClaim& seed_commutativity() {
  const FormalOperator& op = find_formal_operator("seed");
  for (const LawClaim& c : op.laws)
    if (c.law == Law::Commutativity) return c;
  throw std::logic_error("seed has no commutativity entry");
}

TEST(Seed, FmaNonCommutativityComesOutOfTheSolver) {
  const LawClaim& c = seed_commutativity();
  ASSERT_FALSE(c.claimed);
  const ProofResult r = find_formal_operator("seed").prove(c.law, c.domain, {});
  std::cout << describe(r) << "\n";
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
  // The m's agree; only d, where the contraction acts, differs.
  EXPECT_EQ(osvs::float_bits(r.counterexample->lhs.m), osvs::float_bits(r.counterexample->rhs.m));
}

TEST(Seed, WithoutContractionItIsCommutative) {
  const LawClaim& c = seed_commutativity();
  ProveOptions no_fmad;
  no_fmad.fmad = false;
  const ProofResult r = find_formal_operator("seed").prove(c.law, c.domain, no_fmad);
  EXPECT_TRUE(r.proven) << describe(r);
}

}  // namespace
}  // namespace osvs::formal
