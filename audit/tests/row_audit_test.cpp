#include "osvs/audit/row_audit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <thread>

#include "osvs/kernels/executor.h"
#include "osvs/kernels/exp.h"
#include "osvs/oracle/bounds.h"
#include "osvs/oracle/element_chunks.h"
#include "osvs/oracle/matcher.h"
#include "osvs/oracle/reference.h"

namespace osvs::audit {
namespace {

const KernelUnderTest kHardened{KernelKind::TwoPass, CombineKind::Hardened};

SoftmaxResult run(const std::vector<float>& x, int block = 32) {
  SoftmaxBatch b;
  b.kernel = kHardened.kernel;
  b.combine = kHardened.combine;
  b.block = block;
  b.rows = 1;
  b.cols = std::ssize(x);
  b.x = x;
  return make_cpu_executor()->softmax(b);
}

TEST(RowAudit, TheCpuModelIsWithinItsBound) {
  const std::vector<float> x = {0.5f, -3.0f, 2.25f, 10.0f, -40.0f};
  const SoftmaxResult r = run(x);
  ErrorStats stats;
  const RowAudit a = audit_row(kHardened, 32, x.data(), std::ssize(x), r.y.data(), r.row_state[0],
                               kexp_max_ulp(false), &stats);
  EXPECT_TRUE(a.ok) << a.explanation;
  EXPECT_EQ(stats.count(), 5);
  EXPECT_LE(a.ratio, 1.0);
  EXPECT_GT(a.y_bound_max, 0.0);
}

// A perturbed output must be caught: y[3] moved by 1000 ulps is far outside any bound for this
// row (the bounds are a few ulps for |x - m| <= 50).
TEST(RowAudit, APerturbedOutputIsAViolation) {
  const std::vector<float> x = {0.5f, -3.0f, 2.25f, 10.0f, -40.0f};
  SoftmaxResult r = run(x);
  for (int k = 0; k < 1000; ++k) r.y[3] = std::nextafter(r.y[3], 0.0f);
  const RowAudit a = audit_row(kHardened, 32, x.data(), std::ssize(x), r.y.data(), r.row_state[0],
                               kexp_max_ulp(false), nullptr);
  EXPECT_FALSE(a.ok);
  EXPECT_EQ(a.worst_ulp.index, 3);
  EXPECT_GT(a.ratio, 1.0);
  EXPECT_NE(a.explanation.find("ulp"), std::string::npos);
}

TEST(RowAudit, AWrongDIsAViolation) {
  const std::vector<float> x = {1.0f, 2.0f};
  SoftmaxResult r = run(x);
  r.row_state[0].d *= 1.01f;
  const RowAudit a = audit_row(kHardened, 32, x.data(), 2, r.y.data(), r.row_state[0],
                               kexp_max_ulp(false), nullptr);
  EXPECT_FALSE(a.ok);
  EXPECT_NEAR(a.d_rel, 0.01, 1e-6);
}

TEST(RowAudit, SpecialRowsAreHeldToTheDocumentedOutputs) {
  const std::vector<float> nan_row = {1.0f, NAN};
  const std::vector<float> all_nan = {NAN, NAN}, zeros = {0.0f, 0.0f};
  EXPECT_TRUE(audit_row(kHardened, 32, nan_row.data(), 2, all_nan.data(), State{}, 1, nullptr).ok);
  EXPECT_FALSE(audit_row(kHardened, 32, nan_row.data(), 2, zeros.data(), State{}, 1, nullptr).ok);
  // A fully masked row: the hardened 2-pass kernel documents 0, the seed NaN (documented.h).
  const std::vector<float> masked = {-INFINITY, -INFINITY};
  EXPECT_TRUE(audit_row(kHardened, 32, masked.data(), 2, zeros.data(), State{}, 1, nullptr).ok);
  EXPECT_FALSE(audit_row(kHardened, 32, masked.data(), 2, all_nan.data(), State{}, 1, nullptr).ok);
  const KernelUnderTest seed{KernelKind::TwoPass, CombineKind::Seed};
  EXPECT_TRUE(audit_row(seed, 32, masked.data(), 2, all_nan.data(), State{}, 1, nullptr).ok);
  EXPECT_FALSE(audit_row(seed, 32, masked.data(), 2, zeros.data(), State{}, 1, nullptr).ok);
}

/// An IndexLoop on 3 threads that takes the indices from the top down, interleaved: as unlike
/// the sequential order as a loop can be.
const IndexLoop kScrambled = [](std::int64_t count, const std::function<void(std::int64_t)>& body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      for (std::int64_t i = count - 1 - t; i >= 0; i -= 3) body(i);
    });
  for (auto& th : threads) th.join();
};

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void expect_same(const WorstElement& a, const WorstElement& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_TRUE(same_bits(a.reference, b.reference) && same_bits(a.ulp, b.ulp) &&
              same_bits(a.bound, b.bound));
}

// A row of several element chunks audited with its per-element work spread over threads gives the
// sequential audit bit for bit: worst elements, ratios, bounds, statistics, verdict. One output is
// pushed out of its bound in the third chunk so that the verdict and the worst element are at
// stake too.
TEST(RowAudit, ALongRowOnSeveralThreadsIsTheSequentialAudit) {
  const std::int64_t n = 3 * oracle::kElementChunk + 123;
  std::vector<float> x(static_cast<std::size_t>(n));
  std::mt19937_64 rng(7);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  for (float& v : x) v = normal(rng);
  x[5] = x[77] = 60.0f;  // a tied maximum
  x[1000] = -INFINITY;   // a masked element
  SoftmaxResult r = run(x, 256);
  const std::size_t pushed = 2 * oracle::kElementChunk + 17;
  for (const bool perturbed : {false, true}) {
    if (perturbed) r.y[pushed] *= 1.5f;  // far outside any bound of this row
    ErrorStats s1, s2;
    const RowAudit a = audit_row(kHardened, 256, x.data(), n, r.y.data(), r.row_state[0],
                                 kexp_max_ulp(false), &s1);
    const RowAudit b = audit_row(kHardened, 256, x.data(), n, r.y.data(), r.row_state[0],
                                 kexp_max_ulp(false), &s2, &kScrambled);
    EXPECT_EQ(a.ok, !perturbed) << a.explanation;
    EXPECT_EQ(a.ok, b.ok);
    EXPECT_EQ(a.explanation, b.explanation);
    EXPECT_TRUE(same_bits(a.ratio, b.ratio) && same_bits(a.y_bound_max, b.y_bound_max) &&
                same_bits(a.d_rel, b.d_rel) && same_bits(a.d_bound, b.d_bound));
    expect_same(a.worst_ulp, b.worst_ulp);
    expect_same(a.worst_ratio, b.worst_ratio);
    if (perturbed) EXPECT_EQ(a.worst_ratio.index, static_cast<std::int64_t>(pushed));
    EXPECT_EQ(s1.count(), n);
    EXPECT_EQ(s1.count(), s2.count());
    EXPECT_TRUE(same_bits(s1.mean(), s2.mean()) && same_bits(s1.max(), s2.max()));
    EXPECT_EQ(s1.counts(), s2.counts());
  }
}

// audit_row holds every element to the matcher's verdict in its one pass over the row: with
// outputs pushed out of their bounds in the third chunk and then also in the second, its
// explanation is match_softmax's (the lowest such element) either way, on one thread or several.
TEST(RowAudit, TheVerdictIsTheMatchersOnALongRow) {
  const std::int64_t n = 3 * oracle::kElementChunk + 5;
  std::vector<float> x(static_cast<std::size_t>(n));
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> uniform(-20.0f, 20.0f);
  for (float& v : x) v = uniform(rng);
  SoftmaxResult r = run(x, 128);
  const double exp_ulp = kexp_max_ulp(false);
  const oracle::RowReference ref = oracle::reference_row(x.data(), n);
  const oracle::SoftmaxBound bound =
      oracle::softmax_bound(kHardened.kernel, kHardened.combine, 128, x.data(), n, exp_ulp);
  for (const std::size_t pushed : {2 * oracle::kElementChunk + 3, oracle::kElementChunk + 40}) {
    r.y[pushed] *= 2.0f;
    const oracle::MatchResult match =
        oracle::match_softmax(x.data(), n, r.y.data(), ref, bound.y_ulp);
    ASSERT_FALSE(match.ok);
    for (const IndexLoop* loops : {static_cast<const IndexLoop*>(nullptr), &kScrambled}) {
      const RowAudit a = audit_row(kHardened, 128, x.data(), n, r.y.data(), r.row_state[0], exp_ulp,
                                   nullptr, loops);
      EXPECT_FALSE(a.ok);
      EXPECT_EQ(a.explanation, match.explanation);
    }
  }
}

// audit_row reuses its storage from row to row: a row audited after a longer and a shorter one
// is audited as it was the first time.
TEST(RowAudit, ReusedStorageDoesNotShowThrough) {
  const auto row = [](std::int64_t n, std::uint64_t seed) {
    std::vector<float> x(static_cast<std::size_t>(n));
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 5.0f);
    for (float& v : x) v = normal(rng);
    return x;
  };
  const std::vector<float> a = row(1000, 1), longer = row(5000, 2), shorter = row(10, 3);
  const auto audit = [](const std::vector<float>& x) {
    const SoftmaxResult r = run(x);
    ErrorStats s;
    const RowAudit ra = audit_row(kHardened, 32, x.data(), std::ssize(x), r.y.data(),
                                  r.row_state[0], kexp_max_ulp(false), &s);
    return std::make_pair(ra, s);
  };
  const auto first = audit(a);
  audit(longer);
  audit(shorter);
  const auto again = audit(a);
  expect_same(first.first.worst_ulp, again.first.worst_ulp);
  expect_same(first.first.worst_ratio, again.first.worst_ratio);
  EXPECT_TRUE(same_bits(first.first.ratio, again.first.ratio) &&
              same_bits(first.first.y_bound_max, again.first.y_bound_max) &&
              same_bits(first.first.d_bound, again.first.d_bound));
  EXPECT_TRUE(same_bits(first.second.mean(), again.second.mean()));
  EXPECT_EQ(first.second.counts(), again.second.counts());
}

}  // namespace
}  // namespace osvs::audit
