// Every operator's laws, as its declarations and its adapter state them (operators.cpp): a
// claimed law is proven over its domain; a known defect yields a counterexample that the CPU
// model reproduces.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "claimed_laws.h"
#include "osvs/formal/operators.h"

namespace osvs::formal {
namespace {

TEST(Laws, Hardened) {
  check_claimed_laws("hardened");
}

// The registered mutant without hardened's tie rule: identity proven, commutativity broken.
TEST(Laws, MutantUnorderedTies) {
  check_claimed_laws("mutant_unordered_ties");
}

TEST(Laws, EngineCombineExample) {
  check_claimed_laws("engine_combine");
}

// The attention merge of (lse, o) partials, head_dim 1 (attention_merge.h), in either base: its
// commutativity over every (lse, o) and its identity laws over the partials it can hold.
TEST(Laws, AttentionMerge) {
  check_claimed_laws("attention_merge");
}

TEST(Laws, AttentionMergeBase2) {
  check_claimed_laws("attention_merge_base2");
}

// The found defect of the example, the tie of +0 and -0 with equal d's, shown directly too.
TEST(Laws, EngineCombineZeroTieIsTheDefectFound) {
  const FormalOperator& op = find_formal_operator("engine_combine");
  const ProofResult r = op.prove(Law::Commutativity, op.laws.front().domain, {});
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  const Counterexample& c = *r.counterexample;
  EXPECT_EQ(c.a.m, 0.0f) << describe(r);
  EXPECT_EQ(c.b.m, 0.0f) << describe(r);
  EXPECT_NE(std::signbit(c.a.m), std::signbit(c.b.m)) << describe(r);
}

TEST(Laws, UnknownOperatorIsAClearError) {
  try {
    find_formal_operator("no_such_combine");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown operator 'no_such_combine'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("hardened"), std::string::npos);
  }
}

TEST(Laws, UnknownLawName) {
  EXPECT_FALSE(parse_law("associativity").has_value());
  EXPECT_EQ(parse_law("identity_left"), Law::IdentityLeft);
}

}  // namespace
}  // namespace osvs::formal
