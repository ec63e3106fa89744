// The law runs the testbed and the Python bindings share (law_run.h): a failure is reduced
// to a small case that still fails (rows, columns, batch), a permutation stays a permutation when
// columns go, and a property that throws is reported instead of passing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "law_run.h"
#include "misbehaving_kernels.h"

namespace osvs::test {
namespace {

testbed::RcParams fixed_seed() {
  rc::detail::TestParams p;
  p.seed = 20261130;
  return p;
}

testbed::LawRun<RowCase> run(const RowKernel& k, const std::string& law) {
  return testbed::run_law<RowKind>(
      *find_row_law(law), k, 20, [](const Verdict&, const RowCase&) {}, fixed_seed());
}

/// Forgets the tail: the last cols % 4 outputs of a row are 0 and left out of the sum. Fails for
/// every row whose length is not a multiple of 4, so its smallest case is one element.
void tail_dropped(const RowProblem& p) {
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const float* x = p.x<float>() + i * p.x_stride;
    float* y = p.y<float>() + i * p.y_stride;
    const std::int64_t body = p.cols / 4 * 4;
    float m = -INFINITY;
    for (std::int64_t j = 0; j < body; ++j) m = std::fmax(m, x[j]);
    double s = 0;
    for (std::int64_t j = 0; j < body; ++j) s += std::exp(static_cast<double>(x[j]) - m);
    for (std::int64_t j = 0; j < p.cols; ++j)
      y[j] = j < body ? static_cast<float>(std::exp(static_cast<double>(x[j]) - m) / s) : 0.0f;
  }
}

TEST(LawRun, AFailureIsReducedToOneElement) {
  const testbed::LawRun<RowCase> r =
      run(host_kernel("test.tail_dropped", tail_dropped), "accuracy");
  ASSERT_TRUE(r.failed());
  EXPECT_FALSE(r.errored());
  EXPECT_EQ(r.smallest->rows.size(), 1u);
  EXPECT_EQ(r.smallest->rows[0].size(), 1u) << RowKind::summary(*r.smallest);
  EXPECT_TRUE(r.smallest_verdict.fails());
}

TEST(LawRun, AReducedPermutationCaseKeepsAPermutation) {
  const testbed::LawRun<RowCase> r =
      run(host_kernel("test.tail_dropped", tail_dropped), "permutation");
  ASSERT_TRUE(r.failed());
  std::vector<std::int64_t> p = r.smallest->permutation;
  ASSERT_EQ(p.size(), r.smallest->rows[0].size());
  std::sort(p.begin(), p.end());
  std::vector<std::int64_t> identity(p.size());
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(p, identity);
  EXPECT_LE(r.smallest->rows[0].size(), 3u) << RowKind::summary(*r.smallest);
}

/// Two defects: an all-masked row gives 0 where the declared convention is NaN, and a finite row's
/// first output is doubled. One run of the accuracy law reports both, each shrunk on its own.
void two_defects(const RowProblem& p) {
  good_softmax(p);
  for (std::int64_t i = 0; i < p.rows; ++i) {
    const float* x = p.x<float>() + i * p.x_stride;
    float* y = p.y<float>() + i * p.y_stride;
    bool masked = p.cols > 0, finite = true;
    for (std::int64_t j = 0; j < p.cols; ++j) {
      masked = masked && x[j] == -INFINITY;
      finite = finite && std::isfinite(x[j]);
    }
    if (masked)
      for (std::int64_t j = 0; j < p.cols; ++j) y[j] = 0;
    if (finite && p.cols >= 2) y[0] *= 2;
  }
}

TEST(LawRun, EveryDistinctFailureOfARowLawIsReported) {
  const RowKernel k = host_kernel("test.two_defects", two_defects);
  const testbed::LawRun<RowCase> r = testbed::run_law<RowKind>(
      *find_row_law("accuracy"), k, 20, [](const Verdict&, const RowCase&) {}, fixed_seed(), 4);
  ASSERT_TRUE(r.failed());
  std::vector<std::string> kinds = {r.smallest_verdict.failure_kind()};
  for (const auto& other : r.other_findings) kinds.push_back(other.kind);
  std::string all;
  for (const auto& kind : kinds) all += "[" + kind + "] ";
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "all_masked row: a value instead of NaN"),
            kinds.end())
      << all;
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "finite row: outside the contract"), kinds.end())
      << all;
  // Each class shrunk on its own to the length it needs: one element for an all-masked row, two
  // for the doubled y[0] (a row of one is left alone).
  for (const auto& other : r.other_findings)
    EXPECT_LE(other.smallest.rows[0].size(), 2u)
        << other.kind << ": " << RowKind::summary(other.smallest);
}

/// Correct except on rows longer than 131072, where its last output is dropped: a defect of a
/// path for long rows (a split row's last chunk lost) that no random case reaches.
void long_row_tail_lost(const RowProblem& p) {
  good_softmax(p);
  if (p.cols > 131072)
    for (std::int64_t i = 0; i < p.rows; ++i) p.y<float>()[i * p.y_stride + p.cols - 1] = 0;
}

TEST(LawRun, ADeclaredLayoutIsJudgedAtItsEdges) {
  RowKernel k = host_kernel("test.long_row_tail_lost", long_row_tail_lost);
  const auto accuracy = [&] {
    return testbed::run_law<RowKind>(
        *find_row_law("accuracy"), k, 2, [](const Verdict&, const RowCase&) {}, fixed_seed());
  };
  const testbed::LawRun<RowCase> undeclared = accuracy();
  EXPECT_FALSE(undeclared.failed()) << "the random cases stay below 2^17 elements";
  k.layout("one block", 1).layout("split row", 131073, 16384);
  const testbed::LawRun<RowCase> declared = accuracy();
  ASSERT_TRUE(declared.failed());
  // The first length of the split layout is the first declared case that fails, and no column
  // can go without leaving the layout.
  EXPECT_EQ(declared.smallest->rows[0].size(), 131073u) << RowKind::summary(*declared.smallest);
  // The declared cases are judged besides the random ones: 1, 2, 131072 (the last of "one
  // block"), 131073, the first that fails.
  EXPECT_EQ(declared.judged, 4);
}

TEST(LawRun, ACorrectKernelPassesWithoutError) {
  const testbed::LawRun<RowCase> r =
      run(host_kernel("test.good_softmax", good_softmax), "accuracy");
  EXPECT_FALSE(r.failed());
  EXPECT_FALSE(r.errored()) << r.property_failure;
  EXPECT_GT(r.judged, 0);
}

TEST(LawRun, APropertyThatThrowsIsAnErrorNotAPass) {
  const RowKernel k =
      RowKernel("test.unjudgeable", Where::Host)
          .run(good_softmax)
          .accuracy(Accuracy::ulps(
              [](std::int64_t, double) -> double { throw std::logic_error("no contract here"); },
              "throws"));
  const testbed::LawRun<RowCase> r = run(k, "accuracy");
  EXPECT_FALSE(r.failed());
  ASSERT_TRUE(r.errored());
  EXPECT_NE(r.property_failure.find("no contract here"), std::string::npos) << r.property_failure;
}

}  // namespace
}  // namespace osvs::test

namespace osvs::test {
namespace {

/// The shrinking budget ends RapidCheck's search where it is: once it is spent, a case's shrink
/// tree offers no more candidates, where a large failing case has thousands, each as costly to
/// build as the case (a row of 65537 elements shrank for 600 s past a 20 s budget). Counted, not
/// timed.
TEST(LawRun, ABoundedShrinkTreeOffersNoCandidateOnceItsBudgetIsSpent) {
  const auto rows = rc::gen::container<std::vector<float>>(4096, rc::gen::arbitrary<float>());
  const rc::Shrinkable<std::vector<float>> row = rows(rc::Random(20261201), 50);
  // RapidCheck offers at least one candidate (0) for every element that is not 0 already.
  const std::vector<float> values = row.value();  // value() builds a new vector each call
  const auto nonzero = static_cast<std::size_t>(
      std::count_if(values.begin(), values.end(), [](float v) { return v != 0; }));
  ASSERT_GT(nonzero, 0u);
  EXPECT_GE(rc::seq::length(row.shrinks()), nonzero);
  bool spent = false;
  const auto bounded = testbed::bounded_shrinkable(row, [&] { return spent; });
  EXPECT_EQ(rc::seq::length(bounded.shrinks()), rc::seq::length(row.shrinks()))
      << "while the budget lasts the tree is RapidCheck's own";
  const auto first = bounded.shrinks().next();
  ASSERT_TRUE(static_cast<bool>(first));
  spent = true;
  EXPECT_EQ(rc::seq::length(bounded.shrinks()), 0u);
  EXPECT_EQ(rc::seq::length(first->shrinks()), 0u) << "spent below the top too";
}

/// Through a law run: a failing case of 4096 elements with a zero budget is kept as it was found.
TEST(LawRun, AZeroShrinkingBudgetKeepsTheFirstFailingCase) {
  testbed::LawRun<std::vector<float>> run;
  testbed::run_law_property<std::vector<float>>(
      run, "every row fails",
      rc::gen::container<std::vector<float>>(4096, rc::gen::arbitrary<float>()),
      [](const std::vector<float>&) { return Verdict::fail("always"); }, false, 0.0,
      [](const Verdict&, const std::vector<float>&) {}, fixed_seed());
  ASSERT_TRUE(run.failed());
  EXPECT_TRUE(run.budget_spent);
  EXPECT_EQ(run.shrink_steps, 0);
  EXPECT_EQ(run.smallest->size(), 4096u);
}

}  // namespace
}  // namespace osvs::test
