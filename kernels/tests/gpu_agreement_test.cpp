// The CPU model against the real kernels: every kernel, combine and block size runs on the GPU,
// and in the portable-exp build (OSVS_PORTABLE_EXP) the GPU's results equal the model's bit for
// bit. Without a device every test skips with the reason make_cuda_executor gives.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "agreement_fixture.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/dtype.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/merge_trees.h"

namespace osvs {
namespace {

class GpuAgreement : public ExecutorPair {};

TEST_F(GpuAgreement, EveryKernelCombineAndBlockSize) {
  const std::int64_t shapes[][2] = {{3, 1},   {4, 31},   {4, 32},  {4, 33},
                                    {2, 257}, {2, 1000}, {1, 4097}};
  for (KernelKind kernel : kAllKernels)
    for (CombineKind combine : kAllCombines)
      for (int block : kSupportedBlocks)
        for (const auto& s : shapes) {
          const SoftmaxBatch b{
              kernel, combine, block,
              s[0],   s[1],    mixed_rows(s[0], s[1], static_cast<std::uint32_t>(block + s[1]))};
          const std::string what = std::string(to_string(kernel)) + "/" + to_string(combine) +
                                   "/B" + std::to_string(block) + "/" + std::to_string(s[0]) + "x" +
                                   std::to_string(s[1]);
          const SoftmaxResult g = gpu_->softmax(b);
          const SoftmaxResult c = cpu_->softmax(b);
          ASSERT_EQ(g.row_state.size(), static_cast<std::size_t>(b.rows)) << what;
          ASSERT_EQ(c.row_state.size(), g.row_state.size()) << what;
          for (std::size_t r = 0; r < g.row_state.size(); ++r)  // the max is exact everywhere
            EXPECT_TRUE(same_bits(g.row_state[r].m, c.row_state[r].m)) << what << " row " << r;
          if (kPortableExp) expect_bitwise(g, c, what);
        }
  if (!kPortableExp)
    GTEST_SKIP() << "bitwise GPU == CPU model needs the portable-exp build (preset `portable`); "
                    "this build compared the exact row maxima only";
}

TEST_F(GpuAgreement, CombineLevelKernels) {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  std::uniform_real_distribution<float> pos(0.5f, 40.0f);
  std::vector<State> a(4096), b(4096);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = State{normal(rng), pos(rng)};
    b[i] = State{i % 17 == 0 ? a[i].m : normal(rng), pos(rng)};  // some ties
  }
  for (CombineKind k : kAllCombines) {
    const auto g = gpu_->combine_pairs(k, a, b), c = cpu_->combine_pairs(k, a, b);
    const auto gw = gpu_->warp_reduce(k, a), cw = cpu_->warp_reduce(k, a);
    ASSERT_EQ(g.size(), a.size());
    ASSERT_EQ(c.size(), a.size());
    ASSERT_FALSE(cw.empty());
    ASSERT_EQ(gw.size(), cw.size());
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_TRUE(same_bits(g[i].m, c[i].m));
    for (std::size_t i = 0; i < gw.size(); ++i) EXPECT_TRUE(same_bits(gw[i].m, cw[i].m));
    if (!kPortableExp) continue;
    for (std::size_t i = 0; i < g.size(); ++i)
      EXPECT_TRUE(same_bits(g[i].m, c[i].m) && same_bits(g[i].d, c[i].d))
          << to_string(k) << " " << i;
    for (std::size_t i = 0; i < gw.size(); ++i)
      EXPECT_TRUE(same_bits(gw[i].m, cw[i].m) && same_bits(gw[i].d, cw[i].d))
          << to_string(k) << " " << i;
  }
}

// Pairs of bf16 / fp16 states (combine_pairs_in: kernels' Narrow on both executors). The m's and
// the d's of a tie (e = exp(+-0) = 1) are exact on both; every bit agrees in the portable-exp
// build, where the exp is the same function.
TEST_F(GpuAgreement, CombineLevelKernelsInNarrowStates) {
  std::mt19937 rng(13);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  std::uniform_real_distribution<float> pos(0.5f, 40.0f);
  for (DType t : {DType::BF16, DType::F16}) {
    std::vector<State> a(4096), b(4096);
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = State{round_to(t, normal(rng)), round_to(t, pos(rng))};
      b[i] = State{i % 17 == 0 ? a[i].m : round_to(t, normal(rng)), round_to(t, pos(rng))};
    }
    for (CombineKind k : kAllCombines) {
      const auto g = gpu_->combine_pairs_in(t, k, a, b), c = cpu_->combine_pairs_in(t, k, a, b);
      ASSERT_EQ(g.size(), a.size());
      ASSERT_EQ(c.size(), a.size());
      for (std::size_t i = 0; i < g.size(); ++i) {
        const std::string what =
            std::string(to_string(t)) + " " + to_string(k) + " " + std::to_string(i);
        EXPECT_TRUE(same_bits(g[i].m, c[i].m)) << what;
        if (kPortableExp || a[i].m == b[i].m) EXPECT_TRUE(same_bits(g[i].d, c[i].d)) << what;
      }
    }
  }
}

TEST_F(GpuAgreement, HarnessRunsAnyScheduleInOrder) {
  std::mt19937 rng(5);
  HarnessBatch batch{CombineKind::Seed, {}, true};
  for (int i = 0; i < 300; ++i) {
    const int n = 1 + i % 97;
    const int chunks = 1 + i % 9;
    HarnessCase c = random_schedule(n, chunks, uniform_below(rng));
    c.row = mixed_rows(1, n, static_cast<std::uint32_t>(i));
    batch.cases.push_back(c);
  }
  for (CombineKind k : kAllCombines) {
    batch.combine = k;
    const HarnessResult g = gpu_->run_harness(batch), c = cpu_->run_harness(batch);
    ASSERT_EQ(g.root.size(), batch.cases.size());
    ASSERT_EQ(c.root.size(), batch.cases.size());
    for (std::size_t i = 0; i < g.root.size(); ++i) {
      EXPECT_TRUE(same_bits(g.root[i].m, c.root[i].m)) << "case " << i;
      if (kPortableExp) {
        EXPECT_TRUE(same_bits(g.root[i].m, c.root[i].m) && same_bits(g.root[i].d, c.root[i].d))
            << to_string(k) << " " << i;
      }
    }
  }
}

TEST_F(GpuAgreement, LaunchValidationHappensBeforeTheDevice) {
  EXPECT_THROW(
      gpu_->softmax(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Seed, 100, 1, 1, {1.0f}}),
      InvalidLaunch);
  const SoftmaxResult empty =
      gpu_->softmax(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Hardened, 256, 0, 5, {}});
  EXPECT_TRUE(empty.y.empty());
  const SoftmaxResult no_cols =
      gpu_->softmax(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Hardened, 256, 2, 0, {}});
  ASSERT_EQ(no_cols.row_state.size(), 2u);
  EXPECT_TRUE(bitwise_equal(no_cols.row_state[1], identity_state()));
}

}  // namespace
}  // namespace osvs
