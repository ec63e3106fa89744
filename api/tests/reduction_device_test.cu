// The reduction kind on the device: osvs's reductions and the (max, argmax) example compiled by
// nvcc give their CPU models' bits on many schedules in one launch (several blocks of the
// harness), special values included; and the runner names a device reduction that leaves its
// outputs unwritten or writes past them. GPU tests (ReductionDevice.*): skipped where no device
// is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "builtin_reductions.h"
#include "max_argmax.h"
#include "osvs/api/kind.h"
#include "osvs/api/runner.h"
#include "osvs/api/state_reduction_device.cuh"
#include "osvs/kernels/merge_trees.h"

namespace osvs::test {
namespace {

/// 600 seeded random schedules of rows of 0 ... 300 values, one in eight a special value.
std::vector<HarnessCase> schedules() {
  std::mt19937_64 rng(20261204);
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {
      -inf, inf, std::numeric_limits<float>::quiet_NaN(), -0.0f, 0.0f, 0x1p-149f, 1.0f, -1.0f};
  std::vector<HarnessCase> out;
  for (int i = 0; i < 600; ++i) {
    const std::int64_t n = std::uniform_int_distribution<std::int64_t>(0, 300)(rng);
    const int chunks = std::uniform_int_distribution<int>(1, 16)(rng);
    HarnessCase h = random_schedule(n, chunks, uniform_below(rng));
    for (std::int64_t j = 0; j < n; ++j)
      h.row.push_back(std::uniform_int_distribution<int>(0, 7)(rng) == 0
                          ? specials[std::uniform_int_distribution<int>(0, 7)(rng)]
                          : static_cast<float>(std::normal_distribution<double>(0, 30)(rng)));
    out.push_back(std::move(h));
  }
  return out;
}

void expect_same_bits(const ReductionKernel& device, const ReductionKernel& host) {
  const std::vector<HarnessCase> s = schedules();
  const ReductionOutputs got = run_reduction_kernel(device, s);
  const ReductionOutputs want = run_reduction_kernel(host, s);
  int differ = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    differ += got.states[i] != want.states[i] || got.results[i] != want.results[i];
  EXPECT_EQ(differ, 0) << device.name() << ": " << differ << " of " << s.size()
                       << " schedules differ from " << host.name() << " in some bit";
}

#define OSVS_SKIP_WITHOUT_DEVICE()                    \
  do {                                                \
    std::string why;                                  \
    if (!device_available(&why)) GTEST_SKIP() << why; \
  } while (0)

TEST(ReductionDevice, OwnReductionsAndTheExampleGiveTheirCpuModelsBits) {
  OSVS_SKIP_WITHOUT_DEVICE();
  using builtin::LogsumexpReduction;
  using builtin::WelfordReduction;
  expect_same_bits(
      builtin::logsumexp_declared(device_state_reduction<LogsumexpReduction>("test.lse.device")),
      builtin::logsumexp_kernel<LogsumexpReduction>("test.lse"));
  expect_same_bits(
      builtin::welford_declared(device_state_reduction<WelfordReduction>("test.welford.device")),
      builtin::welford_kernel<WelfordReduction>("test.welford"));
  expect_same_bits(device_state_reduction<MaxArgmax>("test.max_argmax.device"),
                   state_reduction<MaxArgmax>("test.max_argmax"));
}

/// A device reduction whose launch is `launch` (it gets the problem's device arrays and stream).
template <class F>
ReductionKernel misbehaving(F launch) {
  return detail::declared_reduction<MaxArgmax>(
      "test.misbehaving", Where::Device,
      [launch](const ReductionProblem& p) { launch(*p.device, p.cuda_stream<cudaStream_t>()); });
}

std::string failure_of(const ReductionKernel& k) {
  try {
    run_reduction_kernel(k, {schedules()[1]});
  } catch (const KernelFailure& e) {
    return e.what();
  }
  return "no KernelFailure";
}

TEST(ReductionDevice, TheRunnerNamesOutputsLeftUnwrittenAndWritesPastThem) {
  OSVS_SKIP_WITHOUT_DEVICE();
  EXPECT_EQ(failure_of(misbehaving([](const ReductionDeviceSchedules&, cudaStream_t) {})),
            "reduction 'test.misbehaving' left field max of schedule 0's states unwritten");
  EXPECT_EQ(failure_of(misbehaving([](const ReductionDeviceSchedules& d, cudaStream_t s) {
              detail::check_cuda(cudaMemsetAsync(d.states, 0, 3 * sizeof(std::uint64_t), s),
                                 "cudaMemsetAsync");
              detail::check_cuda(cudaMemsetAsync(d.results, 0, 2 * sizeof(std::uint64_t), s),
                                 "cudaMemsetAsync");
            })),
            "reduction 'test.misbehaving' wrote past the end of its states (0 bytes after the "
            "last word)");
}

}  // namespace
}  // namespace osvs::test
