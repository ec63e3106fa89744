// What the GPU-against-CPU-model tests share (gpu_agreement_test.cpp, fast_agreement_test.cpp):
// both executors, the test skipping with make_cuda_executor's reason where there is no device,
// and the mixed rows they run.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "osvs/kernels/executor.h"

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

}  // namespace osvs
