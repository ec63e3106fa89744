// Every property can fail: on hand-made cases each holds with the CPU model and fails once the
// executor has a deliberate fault (or, for the seed's identity, with the seed itself).
#include <gtest/gtest.h>

#include <cfloat>
#include <limits>
#include <numeric>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/properties/checks.h"
#include "perturbing_executor.h"

namespace osvs::test {
namespace {

const float kInf = std::numeric_limits<float>::infinity();

/// A row of n values k / 8 - 3 (exact): distinct, finite, a clear maximum.
std::vector<float> plain_row(int n) {
  std::vector<float> r;
  for (int k = 0; k < n; ++k) r.push_back(static_cast<float>((k * 37) % 50) / 8.0f - 3.0f);
  return r;
}

Case softmax_case(std::vector<std::vector<float>> rows, KernelKind k = KernelKind::TwoPass,
                  CombineKind op = CombineKind::Hardened) {
  Case c;
  c.kernel = k;
  c.combine = op;
  c.block = 64;
  c.rows = std::move(rows);
  return c;
}

/// Asserts `check` holds on c with `good` and fails with the faulty executor.
void holds_then_fails(Verdict (*check)(const Case&, Executor&), const Case& c, Faults f,
                      Executor& good) {
  const Verdict g = check(c, good);
  EXPECT_TRUE(g.holds()) << to_string(g.status) << ": " << g.explanation;
  PerturbingExecutor bad(std::move(f));
  const Verdict v = check(c, bad);
  EXPECT_TRUE(v.fails()) << "the property did not notice the fault: " << to_string(v.status);
  EXPECT_FALSE(v.explanation.empty());
}

/// The same with the CPU model as the good executor.
void holds_then_fails(Verdict (*check)(const Case&, Executor&), const Case& c, Faults f) {
  auto model = make_cpu_executor();
  holds_then_fails(check, c, std::move(f), *model);
}

Faults scale_outputs(float factor, int only_call = -1) {
  return {nullptr, nullptr, [=](int call, const SoftmaxBatch&, SoftmaxResult& r) {
            if (only_call >= 0 && call != only_call) return;
            for (float& y : r.y) y *= factor;
          }};
}

TEST(MustFail, SeedIdentityFailsOnTheIdentityItself) {
  Case c;
  c.combine = CombineKind::Seed;
  c.states = {identity_state()};  // (-inf,0) (+) (-inf,0): -inf - -inf = NaN in the seed
  auto model = make_cpu_executor();
  EXPECT_TRUE(check_identity_right(c, *model).fails());
  EXPECT_TRUE(check_identity_left(c, *model).fails());
  c.combine = CombineKind::Hardened;
  EXPECT_TRUE(check_identity_right(c, *model).holds());
  EXPECT_TRUE(check_identity_left(c, *model).holds());
}

TEST(MustFail, IdentityNoticesAPerturbedD) {
  Case c;
  c.states = {State{1.5f, 3.0f}, identity_state()};
  const Faults f{[](State, State, State r) { return State{r.m, one_ulp_up(r.d)}; }};
  holds_then_fails(&check_identity_right, c, f);
  holds_then_fails(&check_identity_left, c, f);
  holds_then_fails(&check_finite_identity, c, f);
}

TEST(MustFail, CommutativityNoticesAnAsymmetricCombine) {
  Case c;
  c.states = {State{1.0f, 2.0f}, State{2.0f, 3.0f}};
  holds_then_fails(&check_commutativity, c, {[](State a, State b, State r) {
    return a.m < b.m ? State{r.m, one_ulp_up(r.d)} : r;
  }});
}

TEST(MustFail, WarpReduceNoticesAWrongRoot) {
  Case c;
  c.rows = {plain_row(100)};
  c.schedules = {warp_tree_schedule(even_partition(100, kWarpSize))};
  holds_then_fails(&check_warp_reduce, c, {nullptr, [](State r) {
                                             return State{r.m, r.d * 1.001f};
                                           }});
  holds_then_fails(&check_warp_reduce, c, {nullptr, [](State r) { return State{r.m + 1, r.d}; }});
}

TEST(MustFail, TreeInvarianceNoticesAWrongRoot) {
  Case c;
  c.rows = {plain_row(40)};
  HarnessCase s;
  s.chunk_offsets = {0, 10, 10, 40};
  s.slot_chunk = {2, 0, 1};
  s.merges = {{0, 1}, {0, 2}};
  c.schedules = {s, s};
  c.schedules[1].merges = {{1, 2}, {0, 1}};
  holds_then_fails(&check_tree_invariance, c, {nullptr, [](State r) {
                                                 return State{r.m, r.d * 1.001f};
                                               }});
}

TEST(MustFail, AccuracyAndSumNoticeScaledOutputs) {
  const Case c = softmax_case({plain_row(300), plain_row(300)});
  holds_then_fails(&check_softmax_accuracy, c, scale_outputs(1.001f));
  holds_then_fails(&check_softmax_sum, c, scale_outputs(1.001f));
}

TEST(MustFail, RangeNoticesAnOutputAboveOne) {
  const Case c = softmax_case({{0.0f, -200.0f}});  // y[0] rounds to 1 exactly
  holds_then_fails(&check_softmax_range, c,
                   {nullptr, nullptr, [](int, const SoftmaxBatch&, SoftmaxResult& r) {
                      r.y[0] = one_ulp_up(r.y[0]);
                    }});
}

TEST(MustFail, PermutationNoticesAPositionDependentFault) {
  Case c = softmax_case({{1.0f, 2.0f, 3.0f}});
  c.permutation = {2, 1, 0};
  holds_then_fails(
      &check_permutation_equivariance, c,
      {nullptr, nullptr, [](int, const SoftmaxBatch&, SoftmaxResult& r) { r.y[0] *= 1.001f; }});
}

TEST(MustFail, ShiftNoticesAValueDependentFault) {
  Case c = softmax_case({{1.0f, 2.0f, 3.0f}});
  c.shift = 16.0f;
  holds_then_fails(&check_shift_invariance, c,
                   {nullptr, nullptr, [](int, const SoftmaxBatch& b, SoftmaxResult& r) {
                      if (b.x[0] > 10) r.y[0] *= 1.001f;
                    }});
}

TEST(MustFail, ShiftIsBitwiseAndNoticesAOneUlpFault) {
  // One ulp on one output lies inside both rows' accuracy bounds, so a comparison within bounds
  // lets it pass; with an exact shift the law is bitwise and notices it. Rows far from |x| < 128.
  Case c = softmax_case({plain_row(40)});
  for (float& x : c.rows[0]) x = x * 0x1p10f + 0x1p20f;  // exact: multiples of 2^7 below 2^21
  c.shift = -0x1p20f;
  holds_then_fails(&check_shift_invariance, c,
                   {nullptr, nullptr, [](int, const SoftmaxBatch& b, SoftmaxResult& r) {
                      if (b.x[0] > 0x1p19f) r.y[0] = one_ulp_up(r.y[0]);
                    }});
}

TEST(MustFail, ShiftNoticesAMaximumThatDoesNotMove) {
  Case c = softmax_case({plain_row(40)});
  c.shift = 0x1p12f;
  holds_then_fails(&check_shift_invariance, c,
                   {nullptr, nullptr, [](int, const SoftmaxBatch& b, SoftmaxResult& r) {
                      if (b.x[0] > 0x1p11f) r.row_state[0].m -= 0x1p12f;
                    }});
}

TEST(MustFail, BatchInvarianceNoticesABatchDependentFault) {
  Case c = softmax_case({plain_row(20)});
  c.batch_rows = 3;
  c.batch_position = 1;
  holds_then_fails(&check_batch_invariance, c,
                   {nullptr, nullptr, [](int, const SoftmaxBatch& b, SoftmaxResult& r) {
                      if (b.rows > 1) r.y[b.cols] = one_ulp_up(r.y[b.cols]);
                    }});
}

TEST(MustFail, DeterminismNoticesASecondLaunchThatDiffers) {
  const Case c = softmax_case({plain_row(20)});
  PerturbingExecutor faithful({});  // a second party: the CPU model under another name
  holds_then_fails(&check_determinism, c,
                   {nullptr, nullptr,
                    [](int call, const SoftmaxBatch&, SoftmaxResult& r) {
                      if (call == 1) r.row_state[0].d = one_ulp_up(r.row_state[0].d);
                    }},
                   faithful);
}

TEST(MustFail, SpecialValuesNoticeEachBrokenRule) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Faults finite_out{nullptr, nullptr, [](int, const SoftmaxBatch&, SoftmaxResult& r) {
                            for (float& y : r.y) y = 0.25f;
                          }};
  holds_then_fails(&check_special_values, softmax_case({{1.0f, nan, 2.0f}}), finite_out);
  holds_then_fails(&check_special_values, softmax_case({{1.0f, kInf, 2.0f}}), finite_out);
  holds_then_fails(&check_special_values, softmax_case({{-kInf, -kInf}}), finite_out);
  holds_then_fails(&check_special_values,
                   softmax_case({{-kInf, -kInf}}, KernelKind::TwoPass, CombineKind::Seed),
                   finite_out);
  holds_then_fails(&check_special_values, softmax_case({{FLT_MAX, -FLT_MAX, FLT_TRUE_MIN}}),
                   scale_outputs(0.5f));
  holds_then_fails(&check_special_values, softmax_case({{}}),
                   {nullptr, nullptr,
                    [](int, const SoftmaxBatch&, SoftmaxResult& r) { r.row_state[0].d = 1.0f; }});
}

TEST(MustFail, ExecutorAgreementNoticesADifferentExecutor) {
  PerturbingExecutor faithful({});
  holds_then_fails(&check_executor_agreement, softmax_case({plain_row(50)}), scale_outputs(1.001f),
                   faithful);
}

TEST(MustFail, MalformedCasesAreClearErrors) {
  auto model = make_cpu_executor();
  Case c = softmax_case({{1.0f, 2.0f}});
  c.permutation = {0, 0};
  EXPECT_THROW(check_permutation_equivariance(c, *model), std::invalid_argument);
  c.states = {State{0, 1}};
  EXPECT_THROW(check_commutativity(c, *model), std::invalid_argument);
  c.batch_rows = 2;
  c.batch_position = 5;
  EXPECT_THROW(check_batch_invariance(c, *model), std::invalid_argument);
  c.rows = {{1.0f}, {1.0f, 2.0f}};
  EXPECT_THROW(check_softmax_accuracy(c, *model), InvalidLaunch);
}

}  // namespace
}  // namespace osvs::test
