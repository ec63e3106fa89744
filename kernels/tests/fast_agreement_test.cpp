// The fast kernel on the GPU against its CPU model: every layout of fast_plan.h (a warp, a block,
// a cluster of 2 ... 8 blocks, a split row), tails of every length, rows not 16-byte aligned, rows
// staged into shared memory by bulk copies and rows loaded into registers, and both ways a split
// row's chunk states meet (cooperative, two launches); the fast-kernel mutants: mutation/tests.
// In the portable-exp build the GPU equals the model bit for bit; otherwise the exact row maxima
// are compared. Skips without a device.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "agreement_fixture.h"
#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/fast_plan.h"

#if defined(OSVS_WITH_CUDA)
#include <cuda_runtime.h>

#include "osvs/kernels/fast_launch.h"
#endif

namespace osvs {
namespace {

class FastAgreement : public ExecutorPair {};

const std::int64_t kShapes[][2] = {
    {3, 0},
    {5, 1},
    {4, 3},
    {4, 4},
    {6, 5},
    {3, 127},
    {3, 128},
    {2, 129},
    {9, 1000},
    {5, 1023},
    {5, 1024},
    {3, 1025},
    {2, 4097},
    {2, 8192},
    {2, 16383},
    {2, 16384},
    {3, 16385},
    {2, 32768},
    {2, 32769},
    {2, 40001},
    {1, 100003},
    {2, 65536},
    {2, 65537},
    {2, 131072},
    {2, 131073},
    {1, 200001},
    // more cluster rows than the device holds clusters at once: the staged clusters loop
    {300, 16384},
    {200, 65536}};

TEST_F(FastAgreement, EveryLayoutAndTail) {
  for (const auto& s : kShapes) {
    const SoftmaxBatch b{KernelKind::Fast,
                         CombineKind::Hardened,
                         256,
                         s[0],
                         s[1],
                         mixed_rows(s[0], s[1], static_cast<std::uint32_t>(s[1]))};
    const std::string what = std::to_string(s[0]) + "x" + std::to_string(s[1]);
    EXPECT_EQ(differing_outputs(gpu_->softmax(b), cpu_->softmax(b), what), 0u) << what;
  }
}

#if defined(OSVS_WITH_CUDA)
/// One launch of the fast kernel on the given split path, through the launcher itself.
SoftmaxResult launch_on_path(const SoftmaxBatch& b, cuda::FastSplitPath path) {
  SoftmaxResult r;
  r.y.resize(b.x.size());
  r.row_state.resize(static_cast<std::size_t>(b.rows));
  float *x = nullptr, *y = nullptr;
  State* s = nullptr;
  const std::size_t bytes = b.x.size() * sizeof(float);
  EXPECT_EQ(cudaMalloc(&x, bytes), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&y, bytes), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&s, r.row_state.size() * sizeof(State)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(x, b.x.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  cuda::launch_fast_softmax(x, y, s, b.rows, b.cols, nullptr, nullptr, path);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(r.y.data(), y, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(
      cudaMemcpy(r.row_state.data(), s, r.row_state.size() * sizeof(State), cudaMemcpyDeviceToHost),
      cudaSuccess);
  EXPECT_EQ(cudaFree(x), cudaSuccess);
  EXPECT_EQ(cudaFree(y), cudaSuccess);
  EXPECT_EQ(cudaFree(s), cudaSuccess);
  return r;
}

TEST_F(FastAgreement, BothSplitPathsGiveTheModelsBits) {
  // 300 rows of 9 chunks: more rows than one cooperative round holds, so blocks loop; rows a
  // multiple of 4 elements long take the staged cooperative kernel (staged_load.cuh).
  for (const auto& s :
       {std::array<std::int64_t, 2>{300, kFastClusterRowMax + 1},
        std::array<std::int64_t, 2>{3, kFastClusterRowMax + 5 * kFastChunkElems + 1},
        std::array<std::int64_t, 2>{200, kFastClusterRowMax + kFastChunkElems},
        std::array<std::int64_t, 2>{3, kFastClusterRowMax + 5 * kFastChunkElems + 4}}) {
    const SoftmaxBatch b{KernelKind::Fast,          CombineKind::Hardened, 256, s[0], s[1],
                         mixed_rows(s[0], s[1], 21)};
    const SoftmaxResult c = cpu_->softmax(b);
    for (auto path : {cuda::FastSplitPath::Cooperative, cuda::FastSplitPath::TwoLaunch}) {
      const std::string what = std::to_string(s[0]) + "x" + std::to_string(s[1]) + " " +
                               cuda::describe_fast_launch(s[0], s[1], path).path;
      EXPECT_EQ(differing_outputs(launch_on_path(b, path), c, what), 0u) << what;
    }
  }
}

TEST_F(FastAgreement, Bf16InOutIsTheFloatModelRoundedOnce) {
  for (const auto& s : {std::array<std::int64_t, 2>{7, 1001}, std::array<std::int64_t, 2>{3, 8195},
                        std::array<std::int64_t, 2>{2, 2 * kFastChunkElems + 9},
                        std::array<std::int64_t, 2>{2, kFastClusterRowMax + 9},
                        // staged split rows (n * 2 % 16 == 0) of 9 chunks: 40 rows, more than one
                        // cooperative round holds on the H200 (264 blocks: 29 rows)
                        std::array<std::int64_t, 2>{40, kFastClusterRowMax + 8},
                        std::array<std::int64_t, 2>{3, 32768},       // staged (n * 2 % 16 == 0)
                        std::array<std::int64_t, 2>{300, 16384}}) {  // staged clusters loop
    SoftmaxBatch b{KernelKind::Fast,          CombineKind::Hardened, 256, s[0], s[1],
                   mixed_rows(s[0], s[1], 33)};
    std::vector<std::uint16_t> xb(b.x.size());
    for (std::size_t i = 0; i < xb.size(); ++i) {
      xb[i] = bf16_bits_of(b.x[i]);
      b.x[i] = float_of_bf16_bits(xb[i]);  // the model reads what the kernel reads
    }
    const SoftmaxResult model = cpu_->softmax(b);
    std::uint16_t *x = nullptr, *y = nullptr;
    State* st = nullptr;
    const std::size_t bytes = xb.size() * sizeof(std::uint16_t);
    ASSERT_EQ(cudaMalloc(&x, bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&y, bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&st, sizeof(State) * static_cast<std::size_t>(s[0])), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(x, xb.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
    cuda::launch_fast_softmax_bf16(x, y, st, s[0], s[1], nullptr, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::uint16_t> yb(xb.size());
    ASSERT_EQ(cudaMemcpy(yb.data(), y, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaFree(x), cudaSuccess);
    EXPECT_EQ(cudaFree(y), cudaSuccess);
    EXPECT_EQ(cudaFree(st), cudaSuccess);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < yb.size(); ++i) bad += yb[i] != bf16_bits_of(model.y[i]);
    EXPECT_EQ(bad, 0u) << s[0] << "x" << s[1];
  }
}
#endif

}  // namespace
}  // namespace osvs
