// Planted changes in copies of combine_hardened.h (made by CMakeLists.txt in the build folder):
// the proof must fail with a counterexample the copy's float combine reproduces, and an
// equivalent change must still be proven.
#include <gtest/gtest.h>

#include "osvs/formal/exp_facts.h"
#include "osvs/formal/prove.h"
#include "osvs/kernels/combine_hardened.h"
#include "planted_less_equal.h"
#include "planted_tie_m.h"

namespace osvs::formal {
namespace {

// A tie of +0 and -0 (d's free): the search CI can afford; the proof over every state is what
// fails, and this is where.
Domain zero_tie() {
  Domain d = kWellFormed;
  d.fixed_m = {0.0f, -0.0f};
  return d;
}

// A tie of 1 and 1, d's 1 or 2: the rescale is exp(+0), and with an exp(+0) other than 1,
// fma(1, e, 2) and fma(2, e, 1) differ (a search small enough for CI).
Domain one_tie() {
  Domain d = kWellFormed;
  d.fixed_m = {1.0f, 1.0f};
  d.d_values = {1.0f, 2.0f};
  return d;
}

TEST(Planted, TieRuleDroppedFailsWithACounterexample) {
  const ProofResult r = prove<planted_tie_m::HardenedCombine>(Law::Commutativity, zero_tie());
  std::cout << describe(r) << "\n";
  ASSERT_FALSE(r.proven);
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
}

TEST(Planted, LessEqualIsAnEquivalentMutant) {
  const ProofResult r = prove<planted_less_equal::HardenedCombine>(Law::Commutativity, kEveryState);
  EXPECT_TRUE(r.proven) << describe(r);
}

// Without the facts exp(+-0) = 1 the hardened combine's tie is no longer symmetric: each fact is
// there because a proof needs it.
TEST(Planted, ProofNeedsTheZeroFacts) {
  std::vector<FunctionFact> facts;
  for (const FunctionFact& f : exp_facts())
    if (f.first != 0x00000000u && f.first != 0x80000000u) facts.push_back(f);
  ProveOptions o;
  o.facts = facts;
  o.pin_search_maxima = false;  // a pin at 0 would restate the fact removed
  const ProofResult r = prove<HardenedCombine>(Law::Commutativity, one_tie(), o);
  EXPECT_FALSE(r.proven) << describe(r);
}

TEST(Planted, ProofNeedsTheNanFacts) {
  std::vector<FunctionFact> facts;
  for (const FunctionFact& f : exp_facts())
    if (f.statement.find("NaN") == std::string::npos) facts.push_back(f);
  ProveOptions o;
  o.facts = facts;
  o.pin_search_maxima = false;  // a pin at 0 would restate the fact removed
  Domain inf_tie = kWellFormed;
  inf_tie.fixed_m = {__builtin_huge_valf(), __builtin_huge_valf()};
  inf_tie.d_values = {1.0f, 2.0f};
  const ProofResult r = prove<HardenedCombine>(Law::Commutativity, inf_tie, o);
  EXPECT_FALSE(r.proven) << describe(r);
}

}  // namespace
}  // namespace osvs::formal
