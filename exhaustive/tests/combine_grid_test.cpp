// The combine grid on the CPU model (exhaustive/README.md, "The combine grid"): the double
// reference against MPFR, the laws of osvs's operators on subsets of the grid, the planted defects
// of the registered mutants found with their inputs, determinism across thread counts, and the
// reports. Each grid run here takes well under a second on two cores.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "osvs/exhaustive/grid/grid_report.h"
#include "osvs/exhaustive/grid/grid_run.h"
#include "osvs/exhaustive/grid/mpfr_one_step.h"

namespace osvs::exhaustive::grid {
namespace {

/// Every 4099th pair index (4099 is prime: m1 and m2 both sweep their 65536 values), one pass.
GridSpec stride_subset() {
  GridSpec s;
  s.stride = 4099;
  s.count = (kGridPairs + s.stride - 1) / s.stride;
  return s;
}

/// The row of pairs whose m1 is the bf16 pattern of x, in every one of the 49 d passes.
GridSpec row_of(float x) {
  GridSpec s;
  s.first = static_cast<std::uint64_t>(float_bits(x) >> 16) << 16;
  s.count = kBf16Patterns;
  s.passes = kDPairs;
  s.states = false;
  return s;
}

bool is_signed_zero_tie(const Counterexample& c) {
  return c.a.m == 0.0f && c.b.m == 0.0f && std::signbit(c.a.m) != std::signbit(c.b.m);
}

TEST(GridSpace, PairsAndStatesAreTheDocumentedOnes) {
  for (std::uint64_t i = 0; i < kGridPairs; i += 999'983)
    for (std::uint32_t pass = 0; pass < kDPairs; ++pass) {
      const GridPair p = grid_pair(i, pass);
      const auto k = static_cast<int>((i + pass) % kDPairs);
      ASSERT_EQ(p.d1 * kDValues + p.d2, k) << i << " " << pass;
      EXPECT_EQ(float_bits(p.a.m), static_cast<std::uint32_t>(i >> 16) << 16);
      EXPECT_EQ(float_bits(p.b.m), static_cast<std::uint32_t>(i & 0xffff) << 16);
    }
  EXPECT_EQ(d_pair_of(kGridPairs - 1, kDPairs - 1),
            static_cast<int>((kGridPairs - 1 + kDPairs - 1) % kDPairs));
  EXPECT_EQ(float_bits(d_value(1)), 1u);
  EXPECT_TRUE(std::isnan(d_value(kDValues - 1)));
  EXPECT_TRUE(bitwise_equal(grid_state(kGridStates - 1).s, State{bf16_float(0xffff), d_value(6)}));
}

TEST(GridSpace, RangesOutsideTheGridAreRefused) {
  GridSpec s;
  s.first = kGridPairs - 1;
  s.count = 1;
  EXPECT_NO_THROW(s.validate());
  s.count = 2;
  EXPECT_THROW(s.validate(), std::invalid_argument);
  s.first = 0;
  s.count = 3;
  s.stride = std::uint64_t{1} << 63;  // (count - 1) * stride wraps around 2^64
  EXPECT_THROW(s.validate(), std::invalid_argument);
  s = GridSpec{};
  s.first_pass = 40;
  s.passes = 10;
  EXPECT_THROW(s.validate(), std::invalid_argument);
}

TEST(OneStepBound, DoubleReferenceWithinItsMarginOfMpfr) {
  std::uint64_t compared = 0;
  for (std::uint64_t i = 0; i < kGridPairs; i += 1'000'003) {
    for (std::uint32_t pass = 0; pass < kDPairs; pass += 7) {
      const GridPair p = grid_pair(i, pass);
      if (!in_bound_domain(p.a, p.b)) continue;
      const double ref = one_step(p.a, p.b, 2.0).reference;
      const double exact = mpfr_step_reference(p.a, p.b);
      ASSERT_LE(std::fabs(ref - exact), reference_margin(ref))
          << state_text(p.a) << " (+) " << state_text(p.b);
      ++compared;
    }
  }
  EXPECT_GT(compared, 1000u);
}

TEST(OneStepBound, ExactResultsHoldAndAResultOffByTheBoundFails) {
  // (1, 1) (+) (1, 1) = (1, 2) exactly; the bound is the sum's rounding, u T + 2^-150 (padded).
  const State one{1.0f, 1.0f};
  const OneStep s = one_step(one, one, 2.0);
  EXPECT_EQ(s.reference, 2.0);
  EXPECT_GE(s.bound, kU * 2);
  double ratio = 0;
  EXPECT_EQ(judge_step(s, State{1.0f, 2.0f}, &ratio), StepVerdict::Holds);
  EXPECT_EQ(ratio, 0.0);
  // The next float above 2 is 2 + 2^-22, four times the bound away: fails, MPFR agrees.
  const State next{1.0f, std::nextafter(2.0f, 3.0f)};
  EXPECT_EQ(judge_step(s, next, &ratio), StepVerdict::Fails);
  EXPECT_FALSE(mpfr_step_holds(one, one, next, s.bound));
  EXPECT_TRUE(mpfr_step_holds(one, one, State{1.0f, 2.0f}, s.bound));
  // A wrong m fails whatever d is.
  EXPECT_EQ(judge_step(s, State{2.0f, 2.0f}, &ratio), StepVerdict::Fails);
  // Two FLT_MAX of equal m overflow: +inf is the right answer.
  const State big{0.0f, FLT_MAX};
  EXPECT_EQ(judge_step(one_step(big, big, 2.0), State{0.0f, INFINITY}, &ratio), StepVerdict::Holds);
}

TEST(CombineGrid, HardenedHoldsEveryLawOnTheStrideSubset) {
  const GridResult r = run_grid_on_host(CombineKind::Hardened, stride_subset());
  for (const LawResult& l : r.laws) {
    EXPECT_TRUE(l.held) << to_string(l.law);
    EXPECT_EQ(l.violations, 0u) << to_string(l.law);
    EXPECT_GT(l.checked, 100'000u) << to_string(l.law);
  }
  EXPECT_TRUE(r.passed());
  // A bound that is never approached is as suspicious as one exceeded: the final rounding of d
  // reaches nearly all of B on this subset.
  EXPECT_GT(r.worst_ratio, 0.5);
  EXPECT_LE(r.worst_ratio, 1.0);
  EXPECT_TRUE(bitwise_equal(r.initial_twice, r.initial));
}

TEST(CombineGrid, HardenedIsCommutativeOnTheSignedZeroRows) {
  for (const float zero : {0.0f, -0.0f}) {
    const GridResult r = run_grid_on_host(CombineKind::Hardened, row_of(zero));
    EXPECT_EQ(r.law(Law::Commutativity).violations, 0u);
    EXPECT_EQ(r.law(Law::OneStepBound).violations, 0u);
    EXPECT_EQ(r.law(Law::Commutativity).checked + r.law(Law::Commutativity).outside,
              kBf16Patterns * kDPairs);
  }
}

TEST(CombineGrid, SeedCountsItsUnclaimedLawsAndHoldsTheOthers) {
  const GridResult r = run_grid_on_host(CombineKind::Seed, stride_subset());
  EXPECT_FALSE(r.law(Law::Commutativity).held);
  EXPECT_FALSE(r.law(Law::Identity).held);
  EXPECT_EQ(r.law(Law::FiniteIdentity).violations, 0u);
  EXPECT_EQ(r.law(Law::OneStepBound).violations, 0u);
  EXPECT_TRUE(r.passed());  // what it does not claim is counted, not failed
  // (-FLT_MAX, 0) is no identity for the true identity (-inf, 0): m stays -FLT_MAX.
  const LawResult& id = r.law(Law::Identity);
  ASSERT_GT(id.violations, 0u);
  bool found_identity_state = false;
  for (const Counterexample& c : id.first)
    found_identity_state |= bitwise_equal(c.a, identity_state());
  EXPECT_TRUE(found_identity_state);
  // FMA contraction (modelled on the host when OSVS_MODEL_FMAD): a (+) b and b (+) a differ.
  if (OSVS_MODEL_FMAD) {
    const LawResult& comm = r.law(Law::Commutativity);
    ASSERT_GT(comm.violations, 0u);
    for (const Counterexample& c : comm.first) {
      EXPECT_NE(c.a.m, c.b.m) << "a tie rescales nothing: exp(0) = 1 on both sides";
      EXPECT_EQ(c.r1.m, c.r2.m) << "fmaxf is symmetric: only d differs";
    }
  }
}

TEST(CombineGrid, UnorderedTiesMutantBreaksCommutativityOnSignedZeros) {
  const GridResult r = run_grid_on_host(CombineKind::MutantUnorderedTies, row_of(-0.0f));
  const LawResult& comm = r.law(Law::Commutativity);
  EXPECT_TRUE(comm.held);  // its original, hardened, claims it
  ASSERT_GT(comm.violations, 0u);
  ASSERT_FALSE(comm.first.empty());
  EXPECT_TRUE(is_signed_zero_tie(comm.first.front()));
  EXPECT_FALSE(r.passed());
  EXPECT_FALSE(counterexample_lines(r).empty());
}

TEST(CombineGrid, NaiveIdentityMutantGivesNanForIdentityWithItself) {
  const GridResult r = run_grid_on_host(CombineKind::MutantNaiveIdentity, row_of(1.0f));
  EXPECT_TRUE(bitwise_equal(r.initial, identity_state()));
  EXPECT_TRUE(std::isnan(r.initial_twice.d));  // -inf - -inf = NaN
  GridSpec states = row_of(1.0f);
  states.count = 1;
  states.passes = 1;
  states.states = true;
  states.examples = kMClasses * kDValues + 1;  // room for all 9 (e (+) e is noted last)
  const GridResult s = run_grid_on_host(CombineKind::MutantNaiveIdentity, states);
  const LawResult& id = s.law(Law::Identity);
  ASSERT_GT(id.violations, 0u);
  bool found = false;
  for (const Counterexample& c : id.first) found |= c.index == kGridStates;  // e (+) e
  EXPECT_TRUE(found);
}

TEST(CombineGrid, MutantsThatDoNotRescaleFailTheOneStepBound) {
  for (const CombineKind k : {CombineKind::MutantNoRescale, CombineKind::MutantOverwriteM}) {
    const GridResult r = run_grid_on_host(k, stride_subset());
    const LawResult& b = r.law(Law::OneStepBound);
    EXPECT_GT(b.violations, b.checked / 10) << to_string(k);
    ASSERT_FALSE(b.first.empty());
    const Counterexample& c = b.first.front();
    EXPECT_GT(c.ratio, 1.0);
    // The verdict of the double reference, confirmed by MPFR.
    EXPECT_FALSE(mpfr_step_holds(c.a, c.b, c.r1, c.bound) &&
                 mpfr_step_holds(c.a, c.b, c.r2, c.bound));
    EXPECT_FALSE(r.passed());
  }
}

TEST(CombineGrid, ResultsDoNotDependOnTheThreadCount) {
  GridSpec one = stride_subset();
  one.stride = 65539;  // prime, about 65536 pairs
  one.count = (kGridPairs + one.stride - 1) / one.stride;
  one.threads = 1;
  GridSpec three = one;
  three.threads = 3;
  const GridResult a = run_grid_on_host(CombineKind::Seed, one);
  const GridResult b = run_grid_on_host(CombineKind::Seed, three);
  for (int l = 0; l < kLaws; ++l) {
    EXPECT_EQ(a.laws[l].violations, b.laws[l].violations);
    EXPECT_EQ(a.laws[l].checked, b.laws[l].checked);
    EXPECT_EQ(a.laws[l].by_key, b.laws[l].by_key);
    ASSERT_EQ(a.laws[l].first.size(), b.laws[l].first.size());
    for (std::size_t k = 0; k < a.laws[l].first.size(); ++k)
      EXPECT_EQ(a.laws[l].first[k].index, b.laws[l].first[k].index);
  }
  EXPECT_EQ(a.worst_ratio, b.worst_ratio);
  EXPECT_EQ(a.worst.index, b.worst.index);
}

TEST(CombineGrid, ReportsCarryCountsAndCounterexamples) {
  GridReport report;
  report.provenance.commit = "test";
  report.results.push_back(run_grid_on_host(CombineKind::MutantUnorderedTies, row_of(0.0f)));
  const nlohmann::json j = nlohmann::json::parse(to_json(report));
  const nlohmann::json& comm = j["results"][0]["laws"][0];
  EXPECT_EQ(comm["law"], "commutativity");
  EXPECT_EQ(comm["violations"].get<std::uint64_t>(), report.results[0].laws[0].violations);
  EXPECT_FALSE(comm["first_violations"].empty());
  const std::string md = to_markdown(report);
  EXPECT_NE(md.find("**VIOLATED**"), std::string::npos);
  EXPECT_NE(md.find("mutant of `hardened`"), std::string::npos);
}

}  // namespace
}  // namespace osvs::exhaustive::grid
