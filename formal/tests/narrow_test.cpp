// bf16 and fp16 states (formal/README.md, "bf16 and fp16 states"): the same operators' source, the
// same laws and domains, with (m, d) of the narrow format and every operation rounded to it; exp
// uninterpreted over the format's bits with the facts exp(+-0) = 1 and exp(NaN) = NaN, which
// NarrowExpFacts checks on every input of the format (the device exps where a GPU is present), the
// log with log_b(2) in the format. Planted and known defects must still fail with a model that the
// format's concrete arithmetic (kernels' narrow_float.h) reproduces.
#include <gtest/gtest.h>

#include <cmath>

#include "claimed_laws.h"
#include "in_each_format.h"
#include "osvs/exhaustive/device_exps.h"
#include "osvs/exhaustive/exps_under_test.h"
#include "osvs/formal/attention_merge.h"
#include "osvs/formal/correctly_rounded.h"
#include "osvs/formal/device_logs.h"
#include "osvs/formal/exp_facts.h"
#include "osvs/formal/log_facts.h"
#include "osvs/formal/operators.h"
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/hex.h"
#include "planted_merge_policies.h"
#include "planted_tie_m.h"

namespace osvs::formal {
namespace {

class NarrowLaws : public InEachFormat {
 protected:
  // Every claimed law of the operator, as laws_test.cpp holds it, in this format.
  void check_operator(const std::string& name) const { check_claimed_laws(name, options()); }
};

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

// The attention merge of two (lse, o) partials, both stored in the format and every step of the
// merge rounded to it: its source is written over the scalar (attention_merge.h), so the same
// source is proven here, with the log uninterpreted but for log_b(2) in the format (log_facts.h).
TEST_P(NarrowLaws, AttentionMerge) {
  EXPECT_TRUE(find_formal_operator("attention_merge").narrow_formats);
  check_operator("attention_merge");
}

TEST_P(NarrowLaws, AttentionMergeBase2) {
  check_operator("attention_merge_base2");
}

template <class Policy>
using PlantedMerge = AttentionMergeOf<LseBase::E, Policy>;

// A planted defect of the merge is found in the format and reproduced by the format's concrete
// arithmetic (kernels' Narrow running the same merge source): without the NaN guard, a NaN lse
// meets an empty partial and the o's differ (as in float32, merge_planted_test.cpp).
TEST_P(NarrowLaws, PlantedMergeNanGuardDroppedFails) {
  Domain search;
  search.fixed_m = {osvs::canonical_nan(), -__builtin_huge_valf()};
  search.d_values = {1.0f};
  const ProofResult r =
      prove<PlantedMerge<planted::NanGuardDropped>>(Law::Commutativity, search, options());
  std::cout << describe(r) << "\n";
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
  EXPECT_EQ(r.counterexample->lhs.d, 1.0f) << describe(r);  // the NaN side's o, kept
  EXPECT_EQ(osvs::float_bits(r.counterexample->rhs.d), 0u) << describe(r);  // both-empty's +0
}

// And one found by the solver over every partial: without the small partial's -inf guard, an lse
// of -0 merged with an empty partial comes back +0 (-0 + log(1)).
TEST_P(NarrowLaws, PlantedMergeSmallEmptyGuardDroppedFails) {
  const ProofResult r = prove<PlantedMerge<planted::SmallEmptyGuardDropped>>(
      Law::IdentityRight, kAttentionPartial, options());
  std::cout << describe(r) << "\n";
  ASSERT_TRUE(r.counterexample.has_value()) << describe(r);
  EXPECT_TRUE(r.counterexample->reproduced) << describe(r);
}

INSTANTIATE_TEST_SUITE_P(Formats, NarrowLaws, ::testing::Values(kBf16, kFp16), format_name);

// The exp facts of a narrow format, checked on every one of its 65536 inputs for every exp the
// uninterpreted function may stand for, rounded to the format (a narrow kernel computes expf of
// the value and stores it): at the facts' inputs it equals the correctly rounded b^x (MPFR at the
// format's precision and range; exactly 1 at +-0) or is a NaN. Elsewhere it is counted against
// the correctly rounded value, for the record (the proofs assume nothing there). The host exps
// here; CUDA's expf, exp2f, __expf and the device portable exp on the GPU (DeviceExps below).
class NarrowExpFacts : public ::testing::TestWithParam<Format> {
 protected:
  /// Every value of the format, as floats, in the order of its bits.
  std::vector<float> every_input() const {
    const Format f = GetParam();
    std::vector<float> in;
    for (std::uint32_t bits = 0; bits < (1u << f.width()); ++bits) in.push_back(f.value_of(bits));
    return in;
  }

  /// e's results at every input (out[bits]), each rounded to the format, checked against every
  /// fact of its function; prints how far the others lie from the correctly rounded exp.
  void check(const exhaustive::ExpUnderTest& e, const std::vector<float>& out) const {
    const Format f = GetParam();
    const char* function = e.base == exhaustive::ExpBase::E ? "exp" : "exp2";
    const std::vector<FunctionFact> facts = exp_facts(f);
    std::uint64_t fact_inputs = 0, off_by_one = 0, worse = 0;
    for (std::uint32_t bits = 0; bits < (1u << f.width()); ++bits) {
      const float x = f.value_of(bits);
      const float result = f.round_float(out[bits]);
      const float exact = correctly_rounded(function, x, f);
      for (const FunctionFact& fact : facts) {
        if (fact.function != function || bits < fact.first || bits > fact.last) continue;
        ++fact_inputs;
        if (is_nan_range(fact, f)) {
          EXPECT_TRUE(std::isnan(result)) << fact.statement << " fails for " << e.name;
        } else {
          EXPECT_EQ(f.bits_of(result), f.bits_of(exact))
              << fact.statement << " fails for " << e.name << ": " << hex(result);
          EXPECT_EQ(exact, 1.0f) << fact.statement;
        }
      }
      if (std::isnan(x)) continue;
      const long diff = std::labs(static_cast<long>(f.bits_of(result) & ~f.sign_bit()) -
                                  static_cast<long>(f.bits_of(exact) & ~f.sign_bit()));
      off_by_one += diff == 1;
      worse += diff > 1;
    }
    // Each fact's inputs: 1 (+0), 1 (-0) and every NaN of each sign.
    EXPECT_EQ(fact_inputs, 2 + 2 * (f.positive_nan_last() - f.positive_nan_first() + 1));
    std::cout << f.name << " " << e.name << " rounded to " << f.name << ": every fact holds on its "
              << fact_inputs << " inputs; " << off_by_one
              << " inputs 1 ulp from the correctly rounded " << function << ", " << worse
              << " further\n";
  }
};

TEST_P(NarrowExpFacts, EveryFactHoldsOnEveryInput) {
  const std::vector<float> in = every_input();
  for (const char* function : {"exp", "exp2"})
    for (const std::string& name : exps_standing_for(function)) {
      const exhaustive::ExpUnderTest& e = exhaustive::find_exp(name);
      if (e.side != exhaustive::Side::Host) continue;  // DeviceExps
      std::vector<float> out(in.size());
      for (std::size_t i = 0; i < in.size(); ++i) out[i] = e.host(in[i]);
      check(e, out);
    }
}

// CUDA's exps on every input of the format, evaluated on the GPU with the kernels' flags: the ones
// kexp and exp2 stand for (expf, exp2f, the device portable exp: the proofs' hypothesis on the
// device) and __expf (the fast kernel's and a mutant's, outside these proofs: checked so that a
// narrow kernel on it would know). Skipped, with the reason, without a GPU.
TEST_P(NarrowExpFacts, EveryFactHoldsOnEveryInputOfTheDeviceExps) {
  const exhaustive::DeviceDescription device = exhaustive::describe_device();
  if (!device.present)
    GTEST_SKIP() << "no GPU here (" << device.why_absent
                 << "): CUDA's expf, exp2f, __expf and the device portable exp are checked on "
                    "every "
                 << GetParam().name << " input where one is present";
  std::cout << "on " << device.name << " (sm " << device.compute_capability << ", " << device.nvcc
            << ")\n";
  const std::vector<float> in = every_input();
  int checked = 0;
  for (const exhaustive::ExpUnderTest& e : exhaustive::exps_under_test()) {
    if (e.side != exhaustive::Side::Device) continue;
    std::vector<float> out(in.size());
    exhaustive::evaluate_on_device_at(e.device, in.data(), in.size(), out.data());
    check(e, out);
    ++checked;
  }
  EXPECT_EQ(checked, 4);  // cuda_expf, cuda_exp2f, cuda_fast_expf, portable_expf_device
}

INSTANTIATE_TEST_SUITE_P(Formats, NarrowExpFacts, ::testing::Values(kBf16, kFp16), format_name);

// The log facts of a narrow format (log(2) = RN(ln 2), log2(2) = 1 in the format, at its bits of
// 2), checked for every log the uninterpreted function stands for, its float result rounded to
// the format: the host's here, the device's where a GPU is present.
class NarrowLogFacts : public ::testing::TestWithParam<Format> {};

/// Checks the format's log facts on every log of the side asked for; returns how many (fact,
/// log) pairs it checked.
int check_narrow_log_facts(const Format& f, bool on_device) {
  int checked = 0;
  for (const FunctionFact& fact : log_facts(f)) {
    EXPECT_EQ(fact.first, fact.last);
    const float x = f.value_of(fact.first);
    EXPECT_EQ(x, 2.0f);
    const float want = correctly_rounded(fact.function, x, f);
    for (const LogUnderTest& log : logs_standing_for(fact.function)) {
      if (log.on_device != on_device) continue;
      float out = 0;
      if (on_device)
        evaluate_log_on_device(log.name, &x, &out, 1);
      else
        out = log.host(x);
      EXPECT_EQ(f.bits_of(f.round_float(out)), f.bits_of(want))
          << fact.statement << " in " << f.name << " fails for " << log.name << ": " << hex(out)
          << " rounds to " << hex(f.round_float(out)) << ", not " << hex(want);
      ++checked;
    }
  }
  return checked;
}

TEST_P(NarrowLogFacts, EveryFactHoldsForEveryHostLog) {
  EXPECT_GE(check_narrow_log_facts(GetParam(), false), 4);  // glibc's and the portable log, log2
}

// CUDA's logf / log2f and the device portable logs on the GPU; skipped, with the reason, without.
TEST_P(NarrowLogFacts, EveryFactHoldsForEveryDeviceLog) {
  const exhaustive::DeviceDescription device = exhaustive::describe_device();
  if (!device.present)
    GTEST_SKIP() << "no GPU here (" << device.why_absent << "): CUDA's logs in " << GetParam().name
                 << " are checked where one is";
  EXPECT_GE(check_narrow_log_facts(GetParam(), true), 2);  // at least CUDA's logf and log2f
}

INSTANTIATE_TEST_SUITE_P(Formats, NarrowLogFacts, ::testing::Values(kBf16, kFp16), format_name);

}  // namespace
}  // namespace osvs::formal
