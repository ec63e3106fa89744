// The derived bounds against the CPU executor: no violation on random rows of every kernel, block
// size and combine, and on random harness schedules; the tightness (worst observed / bound) is
// printed and recorded so a vacuous bound shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/fast_plan.h"
#include "osvs/kernels/merge_trees.h"
#include "osvs/oracle/bounds.h"
#include "osvs/oracle/matcher.h"
#include "osvs/oracle/reference.h"
#include "osvs/oracle/ulp.h"
#include "random_rows.h"

namespace osvs::oracle {
namespace {

constexpr std::int64_t kSizes[] = {1, 31, 32, 33, 257, 1000, 4096};

/// Underflow: [-120, 0); ties: 3 to 7.
std::vector<float> make_row(Shape s, std::int64_t n, std::mt19937& rng) {
  return random_row(s, n, {-120, 3, 7}, rng);
}

struct Tightness {
  double y = 0, d = 0;
  void note_y(double observed, double bound) { y = std::max(y, observed / bound); }
  void note_d(double observed, double bound) {
    if (bound > 0) d = std::max(d, observed / bound);
  }
};

struct Config {
  KernelKind kernel;
  CombineKind combine;
  const char* name;
};
constexpr Config kConfigs[] = {{KernelKind::TwoPass, CombineKind::Seed, "two_pass/seed"},
                               {KernelKind::TwoPass, CombineKind::Hardened, "two_pass/hardened"},
                               {KernelKind::ThreePass, CombineKind::Seed, "three_pass"}};

TEST(Bounds, HoldOnTheCpuExecutorForEveryKernelAndBlock) {
  auto cpu = make_cpu_executor();
  const double exp_ulp = kexp_max_ulp(cpu->is_gpu());
  std::mt19937 rng(11);
  for (const Config& cfg : kConfigs) {
    Tightness t;
    std::int64_t checked = 0;
    for (int block : kSupportedBlocks)
      for (std::int64_t n : kSizes)
        for (Shape shape : kShapes) {
          SoftmaxBatch b{cfg.kernel, cfg.combine, block, 1, n, make_row(shape, n, rng)};
          const SoftmaxResult r = cpu->softmax(b);
          const RowReference ref = reference_row(b.x.data(), n);
          const SoftmaxBound bound =
              softmax_bound(cfg.kernel, cfg.combine, block, b.x.data(), n, exp_ulp);
          const MatchResult m = match_softmax(b.x.data(), n, r.y.data(), ref, bound.y_ulp);
          ASSERT_TRUE(m.ok) << cfg.name << " block " << block << "\n" << m.explanation;
          const double d_err = std::fabs(r.row_state[0].d - ref.d) / ref.d;
          ASSERT_LE(d_err, bound.d_rel + 2 * kReferenceRelErr)
              << cfg.name << " block " << block << " n " << n;
          for (std::int64_t j = 0; j < n; ++j) {
            const auto k = static_cast<std::size_t>(j);
            if (bound.y_ulp[k] > 0) t.note_y(ulp_distance(r.y[k], ref.y[k]), bound.y_ulp[k]);
          }
          t.note_d(d_err, bound.d_rel);
          checked += n;
        }
    std::printf("%-18s %8lld elements: tightness y %.3f, d %.3f\n", cfg.name,
                static_cast<long long>(checked), t.y, t.d);
    RecordProperty(std::string(cfg.name) + "_tightness_y", std::to_string(t.y));
    RecordProperty(std::string(cfg.name) + "_tightness_d", std::to_string(t.d));
    EXPECT_GT(t.y, 0.1) << "bound never approached: suspicious";
  }
}

/// A row whose parts (fast_plan.h: cluster blocks, split chunks) sit at different heights: part c
/// is N(0, 10) minus 45 (c % 3), so the scales of step 6 (fast_schedule.h) are about 1, e^-45 and
/// e^-90 (below the normal range).
std::vector<float> stepped_row(std::int64_t n, std::mt19937& rng) {
  std::vector<float> x = make_row(Shape::Sigma10, n, rng);
  const std::int64_t span = fast_plan(n).chunk_span();
  for (std::int64_t j = 0; j < n; ++j)
    x[static_cast<std::size_t>(j)] -= 45.0f * static_cast<float>(j / span % 3);
  return x;
}

TEST(Bounds, HoldForTheFastKernelOnEveryLayout) {
  // fast_plan.h's layouts: a warp (n <= 1024), a block (<= 8192), cluster rows (3 and 5 blocks),
  // split rows (9 chunks); tails of every length mod 4; rows whose parts' maxima lie far apart.
  // Also the bound the device's exp gets on N(0, 10) rows, and the ratio bound / observed the
  // issue asks about (observed: the CPU model, here).
  auto cpu = make_cpu_executor();
  const double exp_ulp = kexp_max_ulp(cpu->is_gpu());
  std::mt19937 rng(19);
  Tightness t;
  const auto check = [&](std::int64_t n, std::vector<float> x, const char* what) {
    SoftmaxBatch b{KernelKind::Fast, CombineKind::Hardened, 256, 1, n, std::move(x)};
    const SoftmaxResult r = cpu->softmax(b);
    const RowReference ref = reference_row(b.x.data(), n);
    const SoftmaxBound bound = softmax_bound(b.kernel, b.combine, b.block, b.x.data(), n, exp_ulp);
    const MatchResult m = match_softmax(b.x.data(), n, r.y.data(), ref, bound.y_ulp);
    EXPECT_TRUE(m.ok) << "fast n " << n << " " << what << "\n" << m.explanation;
    const double d_err = std::fabs(r.row_state[0].d - ref.d) / ref.d;
    EXPECT_LE(d_err, bound.d_rel + 2 * kReferenceRelErr) << "fast n " << n << " " << what;
    for (std::int64_t j = 0; j < n; ++j) {
      const auto k = static_cast<std::size_t>(j);
      if (bound.y_ulp[k] > 0) t.note_y(ulp_distance(r.y[k], ref.y[k]), bound.y_ulp[k]);
    }
    t.note_d(d_err, bound.d_rel);
    std::printf(
        "fast %-8s n=%6lld: observed (CPU model) %.2f ulp, bound %.2f ulp, d_rel bound %.1f u\n",
        what, static_cast<long long>(n), m.worst_ulp,
        *std::max_element(bound.y_ulp.begin(), bound.y_ulp.end()), bound.d_rel / 0x1p-24);
    return b;
  };
  for (std::int64_t n : {1, 5, 31, 130, 1000, 1024, 1027, 4097, 16385, 40001, 140001})
    for (Shape shape : kShapes) {
      const SoftmaxBatch b =
          check(n, make_row(shape, n, rng), shape == Shape::Sigma10 ? "N(0,10)" : "other");
      if (shape == Shape::Sigma10) {
        const SoftmaxBound dev =
            softmax_bound(b.kernel, b.combine, b.block, b.x.data(), n, CUDA_EXPF_MAX_ULP);
        std::printf("  (CUDA expf figure: bound %.2f ulp)\n",
                    *std::max_element(dev.y_ulp.begin(), dev.y_ulp.end()));
      }
    }
  for (std::int64_t n : {40001, 140001}) check(n, stepped_row(n, rng), "stepped");
  std::printf("fast: tightness y %.3f, d %.3f\n", t.y, t.d);
  RecordProperty("fast_tightness_y", std::to_string(t.y));
  RecordProperty("fast_tightness_d", std::to_string(t.d));
  EXPECT_GT(t.y, 0.1) << "bound never approached: suspicious";
}

/// A random schedule: k chunks, slots in a random order, merged along a random binary tree.
HarnessCase random_schedule(std::vector<float> row, std::mt19937& rng) {
  const int k = std::uniform_int_distribution<int>(1, 24)(rng);
  HarnessCase c = osvs::random_schedule(std::ssize(row), k, uniform_below(rng));
  c.row = std::move(row);
  return c;
}

TEST(Bounds, HarnessBoundHoldsForRandomPartitionsAndTrees) {
  auto cpu = make_cpu_executor();
  const double exp_ulp = kexp_max_ulp(cpu->is_gpu());
  std::mt19937 rng(13);
  for (CombineKind combine : kAllCombines) {
    HarnessBatch batch;
    batch.combine = combine;
    for (int i = 0; i < 300; ++i) {
      const Shape shape = kShapes[i % 5];
      const std::int64_t n = kSizes[(i / 5) % 7];
      batch.cases.push_back(random_schedule(make_row(shape, n, rng), rng));
    }
    const HarnessResult r = cpu->run_harness(batch);
    Tightness t;
    for (std::size_t i = 0; i < batch.cases.size(); ++i) {
      const HarnessCase& c = batch.cases[i];
      const RowReference ref = reference_row(c.row.data(), std::ssize(c.row));
      const double bound = harness_d_bound(c, combine, exp_ulp);
      const double err = std::fabs(r.root[i].d - ref.d) / ref.d;
      ASSERT_EQ(r.root[i].m, ref.m);
      ASSERT_LE(err, bound + 2 * kReferenceRelErr) << to_string(combine) << " case " << i;
      t.note_d(err, bound);
    }
    std::printf("harness/%-10s 300 cases: tightness d %.3f\n", to_string(combine), t.d);
    RecordProperty(std::string("harness_") + to_string(combine) + "_tightness_d",
                   std::to_string(t.d));
    EXPECT_GT(t.d, 0.05) << "bound never approached: suspicious";
  }
}

TEST(Bounds, BadInputIsAClearError) {
  const std::vector<float> x = {1, std::numeric_limits<float>::quiet_NaN()};
  EXPECT_THROW(softmax_bound(KernelKind::TwoPass, CombineKind::Seed, 256, x.data(), 2, 2),
               std::invalid_argument);
  EXPECT_THROW(softmax_bound(KernelKind::TwoPass, CombineKind::Seed, 100, x.data(), 1, 2),
               std::invalid_argument);
  EXPECT_THROW(softmax_bound(KernelKind::TwoPass, CombineKind::Seed, 256, x.data(), 1, -1),
               std::invalid_argument);
  HarnessCase c;
  c.row = {1, 2};
  c.chunk_offsets = {0, 1};  // does not reach the row's end
  c.slot_chunk = {0};
  EXPECT_THROW(harness_d_bound(c, CombineKind::Seed, 2), std::invalid_argument);
}

TEST(Bounds, ComparedWithBlanchardHighamHigham) {
  // On x ~ N(0, 10) rows, the seed 2-pass kernel, block 256: our per-element bound (the worst
  // element of the row, converted to a normwise relative bound as ulps * 2^-23 at most, since
  // ulp(y) <= 2^-23 |y|) next to BHH's [n + 2 + 2 (x_max - x_min)] u, for the CPU model's exp and
  // for CUDA's expf. The error the bound must cover is measured here, on the same row, by the CPU
  // executor, and must lie inside the bound for the CPU model's exp, element by element.
  auto cpu = make_cpu_executor();
  const double cpu_exp_ulp = kexp_max_ulp(cpu->is_gpu());
  std::mt19937 rng(17);
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{32768}}) {
    SoftmaxBatch batch{
        KernelKind::TwoPass, CombineKind::Seed, 256, 1, n, make_row(Shape::Sigma10, n, rng)};
    const float* x = batch.x.data();
    const SoftmaxResult r = cpu->softmax(batch);
    const RowReference ref = reference_row(x, n);
    const SoftmaxBound on_cpu = softmax_bound(batch.kernel, batch.combine, 256, x, n, cpu_exp_ulp);
    const MatchResult m = match_softmax(x, n, r.y.data(), ref, on_cpu.y_ulp);
    ASSERT_TRUE(m.ok) << m.explanation;
    const double bhh = bhh_softmax_bound(x, n);
    std::printf("N=%6lld: observed (CPU model) %.1f ulp; BHH %.0f u = %.0f..%.0f ulp\n",
                static_cast<long long>(n), m.worst_ulp, bhh / 0x1p-24, bhh / 0x1p-24 / 2,
                bhh / 0x1p-24);
    for (const double exp_ulp : {cpu_exp_ulp, CUDA_EXPF_MAX_ULP}) {
      const SoftmaxBound b = softmax_bound(batch.kernel, batch.combine, 256, x, n, exp_ulp);
      const double worst = *std::max_element(b.y_ulp.begin(), b.y_ulp.end());
      std::printf("  exp %.0f ulp: worst per-element bound %.1f ulp (d_rel %.1f u)\n", exp_ulp,
                  worst, b.d_rel / 0x1p-24);
      EXPECT_GE(worst, m.worst_ulp);    // the observed error is inside (the matcher checked each)
      EXPECT_LT(worst * 0x1p-23, bhh);  // ours is the tighter statement
    }
  }
}

}  // namespace
}  // namespace osvs::oracle
