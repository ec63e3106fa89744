// What the GPU-against-CPU-model tests share (gpu_agreement_test.cpp, fast_agreement_test.cpp,
// and mutation/tests/mutant_agreement_test.cpp for the mutants): both executors, the test skipping
// with make_cuda_executor's reason where there is no device, the mixed rows they run and the
// bitwise comparisons of their results.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/kernels/hd.h"

namespace osvs {

class ExecutorPair : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    gpu_ = make_cuda_executor(&why);
    if (!gpu_) GTEST_SKIP() << "GPU test skipped: " << why;
    cpu_ = make_cpu_executor();
  }
  std::unique_ptr<Executor> gpu_, cpu_;
};

/// Rows mixing normal values (sigma 10), masked (-inf) elements, ties with the max and values
/// far below it, so that every branch of the combines and underflowing exps are exercised.
inline std::vector<float> mixed_rows(std::int64_t rows, std::int64_t cols, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  std::uniform_int_distribution<int> pick(0, 19);
  std::vector<float> x(static_cast<std::size_t>(rows * cols));
  for (float& v : x) {
    const int p = pick(rng);
    v = p == 0 ? -INFINITY : p == 1 ? 30.0f : p == 2 ? -120.0f : normal(rng);
  }
  return x;
}

inline bool same_bits(float a, float b) {
  return float_bits(a) == float_bits(b);
}

/// Expects the GPU's results g to equal the CPU model's c bit for bit (outputs and row states).
inline void expect_bitwise(const SoftmaxResult& g, const SoftmaxResult& c,
                           const std::string& what) {
  ASSERT_EQ(g.y.size(), c.y.size());
  ASSERT_EQ(g.row_state.size(), c.row_state.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < g.y.size(); ++i)
    if (!same_bits(g.y[i], c.y[i]) && bad++ == 0) first = i;
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " outputs differ, first y[" << first << "] gpu "
                     << std::hexfloat << g.y[first] << " cpu " << c.y[first];
  for (std::size_t r = 0; r < g.row_state.size(); ++r)
    EXPECT_TRUE(same_bits(g.row_state[r].m, c.row_state[r].m) &&
                same_bits(g.row_state[r].d, c.row_state[r].d))
        << what << ": row " << r << " state gpu (" << std::hexfloat << g.row_state[r].m << ", "
        << g.row_state[r].d << ") cpu (" << c.row_state[r].m << ", " << c.row_state[r].d << ")";
}

/// The fast kernel's comparison, bitwise in every build (its exp is portable_expf on both
/// executors, exp_functors.h): expects equal row states, reports the first differing output and
/// returns the number of differing outputs.
inline std::size_t differing_outputs(const SoftmaxResult& g, const SoftmaxResult& c,
                                     const std::string& what) {
  EXPECT_EQ(g.y.size(), c.y.size()) << what;
  EXPECT_EQ(g.row_state.size(), c.row_state.size()) << what;
  std::size_t bad = 0;
  for (std::size_t r = 0; r < g.row_state.size() && r < c.row_state.size(); ++r) {
    EXPECT_EQ(float_bits(g.row_state[r].m), float_bits(c.row_state[r].m)) << what << " row " << r;
    EXPECT_EQ(float_bits(g.row_state[r].d), float_bits(c.row_state[r].d)) << what << " row " << r;
  }
  for (std::size_t i = 0; i < g.y.size() && i < c.y.size(); ++i)
    if (float_bits(g.y[i]) != float_bits(c.y[i]) && bad++ == 0)
      ADD_FAILURE() << what << ": first differing y[" << i << "] gpu " << std::hexfloat << g.y[i]
                    << " cpu " << c.y[i];
  return bad;
}

}  // namespace osvs
