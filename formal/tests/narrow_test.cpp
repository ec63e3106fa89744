// bf16 and fp16 states (formal/README.md, "bf16 and fp16 states"): the same operators' source, the
// same laws and domains, with (m, d) of the narrow format and every operation rounded to it; exp
// uninterpreted over the format's bits with the facts exp(+-0) = 1 and exp(NaN) = NaN, which
// NarrowExpFacts checks on every input of the format. Planted and known defects must still fail
// with a model that the format's concrete arithmetic (narrow.h) reproduces.
#include <gtest/gtest.h>

#include <cmath>

#include "claimed_laws.h"
#include "osvs/exhaustive/exps_under_test.h"
#include "osvs/formal/correctly_rounded.h"
#include "osvs/formal/exp_facts.h"
#include "osvs/formal/narrow.h"
#include "osvs/formal/operators.h"
#include "osvs/kernels/combine_hardened.h"
#include "planted_tie_m.h"

namespace osvs::formal {
namespace {

class NarrowLaws : public ::testing::TestWithParam<Format> {
 protected:
  ProveOptions options() const {
    ProveOptions o;
    o.format = GetParam();
    return o;
  }
  // Every claimed law of the operator, as laws_test.cpp holds it, in this format.
  void check_operator(const std::string& name) const { check_claimed_laws(name, options()); }
};

std::string format_name(const ::testing::TestParamInfo<Format>& info) {
  return info.param.name;
}

TEST_P(NarrowLaws, Hardened) {
  check_operator("hardened");
}

TEST_P(NarrowLaws, MutantUnorderedTies) {
  check_operator("mutant_unordered_ties");
}

TEST_P(NarrowLaws, EngineCombineExample) {
  check_operator("engine_combine");
}

// The seed's contraction asymmetry is no artefact of binary32: its search (finite d's, maxima 0
// and -1) finds it in the narrow format too, reproduced by the format's arithmetic.
TEST_P(NarrowLaws, SeedCommutativityFails) {
  const FormalOperator& op = find_formal_operator("seed");
  const ProofResult r = op.prove(Law::Commutativity, op.laws.front().domain, options());
  std::cout << describe(r) << "\n";
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
}

// The seed without contraction (--fmad=false) is commutative in the narrow format as in binary32.
TEST_P(NarrowLaws, SeedWithoutContractionIsCommutative) {
  const FormalOperator& op = find_formal_operator("seed");
  ProveOptions o = options();
  o.fmad = false;
  const ProofResult r = op.prove(Law::Commutativity, op.laws.front().domain, o);
  std::cout << describe(r) << "\n";
  EXPECT_TRUE(r.proven) << describe(r);
}

TEST_P(NarrowLaws, PlantedTieRuleDroppedFails) {
  Domain zero_tie = kWellFormed;
  zero_tie.fixed_m = {0.0f, -0.0f};
  const ProofResult r =
      prove<planted_tie_m::HardenedCombine>(Law::Commutativity, zero_tie, options());
  std::cout << describe(r) << "\n";
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
}

// Each fact is needed in the narrow format too: without exp(+-0) = 1 the tie is not proven.
TEST_P(NarrowLaws, ProofNeedsTheZeroFacts) {
  ProveOptions o = options();
  std::vector<FunctionFact> facts;
  for (const FunctionFact& f : exp_facts(o.format))
    if (f.statement.find("0) = 1") == std::string::npos) facts.push_back(f);
  o.facts = facts;
  o.pin_search_maxima = false;  // a pin at 0 would restate the fact removed
  Domain one_tie = kWellFormed;
  one_tie.fixed_m = {1.0f, 1.0f};
  one_tie.d_values = {1.0f, 2.0f};
  const ProofResult r = prove<HardenedCombine>(Law::Commutativity, one_tie, o);
  EXPECT_FALSE(r.proven) << describe(r);
}

// The attention merge is float32 only: asked for a narrow state, it is refused, not misproven.
TEST_P(NarrowLaws, AttentionMergeIsRefused) {
  const FormalOperator& op = find_formal_operator("attention_merge");
  EXPECT_FALSE(op.narrow_formats);
  EXPECT_TRUE(find_formal_operator("hardened").narrow_formats);
  EXPECT_THROW(op.prove(Law::Commutativity, kEveryState, options()), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Formats, NarrowLaws, ::testing::Values(kBf16, kFp16), format_name);

// The exp facts of a narrow format, checked on every one of its 65536 inputs for every host exp
// the uninterpreted function stands for, rounded to the format (a narrow kernel computes expf of
// the value and stores it): at the facts' inputs it equals the correctly rounded b^x (MPFR at the
// format's precision and range; exactly 1 at +-0) or is a NaN. Elsewhere it is counted against
// the correctly rounded value, for the record (the proofs assume nothing there).
class NarrowExpFacts : public ::testing::TestWithParam<Format> {};

TEST_P(NarrowExpFacts, EveryFactHoldsOnEveryInput) {
  const Format f = GetParam();
  const std::vector<FunctionFact> facts = exp_facts(f);
  for (const char* function : {"exp", "exp2"}) {
    for (const std::string& name : exps_standing_for(function)) {
      const exhaustive::ExpUnderTest& e = exhaustive::find_exp(name);
      if (e.side != exhaustive::Side::Host) continue;  // device exps: the GPU suite's
      std::uint64_t fact_inputs = 0, off_by_one = 0, worse = 0;
      for (std::uint32_t bits = 0; bits < (1u << f.width()); ++bits) {
        const float x = f.value_of(bits);
        const float host = f.round_float(e.host(x));
        const float exact = correctly_rounded(function, x, f);
        for (const FunctionFact& fact : facts) {
          if (fact.function != function || bits < fact.first || bits > fact.last) continue;
          ++fact_inputs;
          if (is_nan_range(fact, f)) {
            EXPECT_TRUE(std::isnan(host)) << fact.statement << " fails for " << name;
          } else {
            EXPECT_EQ(f.bits_of(host), f.bits_of(exact)) << fact.statement << " for " << name;
            EXPECT_EQ(exact, 1.0f) << fact.statement;
          }
        }
        if (std::isnan(x)) continue;
        const long diff = std::labs(static_cast<long>(f.bits_of(host) & ~f.sign_bit()) -
                                    static_cast<long>(f.bits_of(exact) & ~f.sign_bit()));
        off_by_one += diff == 1;
        worse += diff > 1;
      }
      // Each fact's inputs: 1 (+0), 1 (-0) and every NaN of each sign.
      EXPECT_EQ(fact_inputs, 2 + 2 * (f.positive_nan_last() - f.positive_nan_first() + 1));
      std::cout << f.name << " " << name << " rounded to " << f.name << ": " << off_by_one
                << " inputs 1 ulp from the correctly rounded " << function << ", " << worse
                << " further\n";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, NarrowExpFacts, ::testing::Values(kBf16, kFp16), format_name);

}  // namespace
}  // namespace osvs::formal
