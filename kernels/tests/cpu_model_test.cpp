// The CPU model follows the kernels' reduction order exactly: checked against the order spelled
// out by hand for small shapes, on inputs where another order gives other bits.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/executor.h"

namespace osvs {
namespace {

TEST(CpuModel, LessonWorkedExample) {
  // [1, 2] (+) [3] -> (3, 1.503214): the lesson's numbers, e^-2 + e^-1 + 1 = 1.5032140...
  const State a =
      SeedCombine::combine(SeedCombine::combine(SeedCombine::initial(), SeedCombine::lift(1.0f)),
                           SeedCombine::lift(2.0f));
  EXPECT_EQ(a.m, 2.0f);
  EXPECT_NEAR(a.d, 1.0 + std::exp(-1.0), 1e-6);
  const State ab = SeedCombine::combine(a, SeedCombine::lift(3.0f));
  EXPECT_EQ(ab.m, 3.0f);
  EXPECT_NEAR(ab.d, 1.503214, 1e-6);
  EXPECT_NEAR(ab.d, std::exp(-2.0) + std::exp(-1.0) + 1.0, 2e-7);
}

/// A row of 64 values whose sum order is visible in the bits of d.
std::vector<float> order_sensitive_row() {
  std::vector<float> row(64);
  for (int i = 0; i < 64; ++i) row[i] = -0.37f * static_cast<float>((i * 29) % 64) + 0.011f * i;
  return row;
}

/// Block 32, n = 64: lane l folds x[l] then x[l + 32]; then offsets 16, 8, 4, 2, 1 with lane l
/// combining lane l + offset; then the shared-memory stage with one warp (lanes 1..31 initial).
template <class Op>
State spelled_out_block32(const std::vector<float>& x) {
  State lane[32];
  for (int l = 0; l < 32; ++l)
    lane[l] = Op::combine(Op::combine(Op::initial(), Op::lift(x[l])), Op::lift(x[l + 32]));
  auto tree = [](State* v) {
    for (int off = 16; off > 0; off /= 2) {
      State next[32];
      for (int l = 0; l < 32; ++l) next[l] = Op::combine(v[l], v[l + off < 32 ? l + off : l]);
      for (int l = 0; l < 32; ++l) v[l] = next[l];
    }
    return v[0];
  };
  State second[32];
  second[0] = tree(lane);
  for (int l = 1; l < 32; ++l) second[l] = Op::initial();
  return tree(second);
}

template <class Op>
State left_fold(const std::vector<float>& x) {
  State s = Op::initial();
  for (float v : x) s = Op::combine(s, Op::lift(v));
  return s;
}

TEST(CpuModel, TwoPassFollowsTheBlockOrder) {
  const auto x = order_sensitive_row();
  const auto cpu = make_cpu_executor();
  const auto check = [&](auto op) {
    using Op = decltype(op);
    const CombineKind k = *parse_combine(Op::kName);
    SoftmaxBatch b{KernelKind::TwoPass, k, 32, 1, 64, x};
    const State got = cpu->softmax(b).row_state[0];
    const State want = spelled_out_block32<Op>(x);
    EXPECT_TRUE(bitwise_equal(got, want)) << to_string(k) << ": " << got.d << " vs " << want.d;
    // The test can fail: another order gives other bits for this row.
    const State other = left_fold<Op>(x);
    EXPECT_FALSE(bitwise_equal(want, other)) << "row is not order sensitive for " << to_string(k);
  };
  check(SeedCombine{});
  check(HardenedCombine{});
}

/// An algebra whose values spell out their combine tree: equal strings, the same computation in
/// any algebra.
struct ExpressionAlg {
  using value_type = std::string;
  std::string combine(const std::string& a, const std::string& b) const {
    return "(" + a + " " + b + ")";
  }
};

/// A schedule whose shuffle trees start at offset 8 (the other members as written): a first
/// offset below 16, on which model_warp_reduce's lane-0 shortcut must hold too.
struct FirstShuffleOffset8 : BlockSchedule {
  static constexpr int kFirstShuffleOffset = 8;
};

/// Lane 0 of the full shuffle tree from `first_offset` down (every lane, a partner beyond lane 31
/// being the lane itself), spelled out as an expression.
std::string full_tree_lane0(int first_offset) {
  std::array<std::string, 32> full;
  for (int l = 0; l < 32; ++l) full[l] = std::to_string(l);
  for (int off = first_offset; off > 0; off /= 2) {
    std::array<std::string, 32> next;
    for (int l = 0; l < 32; ++l)
      next[l] = "(" + full[l] + " " + full[l + off < 32 ? l + off : l] + ")";
    full = next;
  }
  return full[0];
}

// model_warp_reduce computes only the lanes lane 0 depends on: lane 0's tree is the full
// shuffle tree's, with either first offset.
TEST(CpuModel, TheWarpTreeOfLaneZeroIsTheFullTreesLaneZero) {
  std::array<std::string, 32> lanes;
  for (int l = 0; l < 32; ++l) lanes[l] = std::to_string(l);
  EXPECT_EQ(model_warp_reduce(lanes, ExpressionAlg{}), full_tree_lane0(16));
  EXPECT_EQ(model_warp_reduce<FirstShuffleOffset8>(lanes, ExpressionAlg{}), full_tree_lane0(8));
}

TEST(CpuModel, ShuffleTreeLanesOutOfRangeCombineWithThemselves) {
  // Lane 31 at offset 1 has no partner: it receives its own value. Only its own lane sees it.
  std::array<State, 32> lanes;
  for (int l = 0; l < 32; ++l) lanes[l] = State{static_cast<float>(l % 7), 1.0f + l};
  const OnlineAlg<HardenedCombine> alg;
  const State root = model_warp_reduce(lanes, alg);
  State expect[32];
  for (int l = 0; l < 32; ++l) expect[l] = lanes[l];
  for (int off = 16; off > 0; off /= 2) {
    State next[32];
    for (int l = 0; l < 32; ++l)
      next[l] = HardenedCombine::combine(expect[l], expect[l + off < 32 ? l + off : l]);
    for (int l = 0; l < 32; ++l) expect[l] = next[l];
  }
  EXPECT_TRUE(bitwise_equal(root, expect[0]));
}

TEST(CpuModel, ThreePassIsMaxThenSumThenWrite) {
  const auto x = order_sensitive_row();
  const auto cpu = make_cpu_executor();
  const SoftmaxResult r =
      cpu->softmax(SoftmaxBatch{KernelKind::ThreePass, CombineKind::Seed, 64, 1, 64, x});
  float m = -INFINITY;
  for (float v : x) m = std::fmax(m, v);
  EXPECT_EQ(r.row_state[0].m, m);
  for (int j = 0; j < 64; ++j)
    EXPECT_EQ(r.y[j], softmax_output(x[j], r.row_state[0].m, r.row_state[0].d));
}

TEST(CpuModel, EmptyRowsGiveTheInitialState) {
  const auto cpu = make_cpu_executor();
  const SoftmaxResult seed =
      cpu->softmax(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Seed, 256, 3, 0, {}});
  ASSERT_EQ(seed.row_state.size(), 3u);
  EXPECT_TRUE(seed.y.empty());
  EXPECT_TRUE(bitwise_equal(seed.row_state[1], seed_initial_state()));
  const SoftmaxResult hard =
      cpu->softmax(SoftmaxBatch{KernelKind::TwoPass, CombineKind::Hardened, 256, 1, 0, {}});
  EXPECT_TRUE(bitwise_equal(hard.row_state[0], identity_state()));
}

TEST(CpuModel, HarnessMergesInTheGivenOrder) {
  HarnessCase c;
  c.row = order_sensitive_row();
  c.chunk_offsets = {0, 10, 30, 64};
  c.slot_chunk = {2, 0, 1};
  c.merges = {{1, 2}, {0, 1}};  // slot1 = chunk0 (+) chunk1; slot0 = chunk2 (+) slot1
  c.root = 0;
  const auto cpu = make_cpu_executor();
  const HarnessResult r = cpu->run_harness(HarnessBatch{CombineKind::Seed, {c}, true});
  ASSERT_EQ(r.chunk_states[0].size(), 3u);
  const State want = SeedCombine::combine(
      r.chunk_states[0][2], SeedCombine::combine(r.chunk_states[0][0], r.chunk_states[0][1]));
  EXPECT_TRUE(bitwise_equal(r.root[0], want));
}

}  // namespace
}  // namespace osvs
