// time_softmax_kernels: CUDA-event timing of the kernels against a device copy (bandwidth.h).
#include <algorithm>
#include <random>
#include <vector>

#include "cuda_check.cuh"
#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/cuda_launch.h"
#include "osvs/kernels/dtype_bits.h"
#include "osvs/kernels/validate.h"

namespace osvs {
namespace {

/// Median time in ms of `reps` runs of f, after 3 warm-up runs.
template <class F>
double median_ms(F&& f, int reps) {
  cudaEvent_t start, stop;
  OSVS_CUDA_CHECK(cudaEventCreate(&start));
  OSVS_CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    OSVS_CUDA_CHECK(cudaEventRecord(start));
    f();
    OSVS_CUDA_CHECK(cudaEventRecord(stop));
    OSVS_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    OSVS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    t.push_back(ms);
  }
  OSVS_CUDA_CHECK(cudaEventDestroy(start));
  OSVS_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// The reads of x a kernel issues (SoftmaxKernelFns::x_passes: 2-pass 2, 3-pass 3, fast 1), the
/// fast kernel's 2 on its two-launch path.
int x_passes(const SoftmaxKernelFns& facts, const cuda::FastLaunchInfo& fast) {
  return facts.plans_own_block && fast.read_twice ? 2 : facts.x_passes;
}

/// rows x cols N(0, 10) values (fixed seed), the benchmark's data.
std::vector<float> bench_data(std::int64_t rows, std::int64_t cols) {
  std::vector<float> host(static_cast<std::size_t>(rows * cols));
  std::mt19937 rng(42);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  for (float& v : host) v = normal(rng);
  return host;
}

/// Median time of a device-to-device copy of `bytes` from x to y.
double copy_ms(const void* x, void* y, std::size_t bytes, int reps) {
  return median_ms([&] { OSVS_CUDA_CHECK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice)); },
                   reps);
}

}  // namespace

ShapeTiming time_softmax_kernels(std::int64_t rows, std::int64_t cols,
                                 const std::vector<TimedKernel>& kernels, int repetitions) {
  for (const TimedKernel& k : kernels) validate_shape(k.kernel, k.combine, k.block, rows, cols);
  if (repetitions < 1) throw InvalidLaunch("repetitions must be at least 1");
  const auto n = static_cast<std::size_t>(rows * cols);
  const std::vector<float> host = bench_data(rows, cols);
  cuda::DeviceBuffer<float> x(host.data(), n), y(n);
  cuda::DeviceBuffer<State> st(static_cast<std::size_t>(rows));
  ShapeTiming out{rows, cols, 0, 0, {}};
  out.copy_ms = copy_ms(x.get(), y.get(), n * sizeof(float), repetitions);
  out.copy_gbps = 2.0 * static_cast<double>(n) * sizeof(float) / out.copy_ms / 1e6;
  // The fast kernel's workspace, allocated once (its launches do not allocate when given one).
  cuda::DeviceBuffer<unsigned char> workspace(cuda::fast_workspace_bytes(rows, cols));
  if (workspace.size() > 0) OSVS_CUDA_CHECK(cudaMemset(workspace.get(), 0, workspace.size()));
  const double copy_bytes = 2.0 * static_cast<double>(n) * sizeof(float);
  for (const TimedKernel& k : kernels) {
    const SoftmaxKernelFns& facts = builtin_softmax_kernel(k.kernel);
    const bool fast = facts.plans_own_block;  // the fast kernel: its workspace and split path
    const double ms = median_ms(
        [&] {
          if (fast)
            cuda::launch_fast_softmax(x.get(), y.get(), st.get(), rows, cols, workspace.get(),
                                      nullptr, k.split);
          else
            cuda::launch_softmax(k.kernel, k.combine, k.block, x.get(), y.get(), st.get(), rows,
                                 cols, nullptr);
        },
        repetitions);
    OSVS_CUDA_CHECK(cudaDeviceSynchronize());
    const cuda::FastLaunchInfo info =
        fast ? cuda::describe_fast_launch(rows, cols, k.split) : cuda::FastLaunchInfo{};
    const std::string path = fast ? std::string(info.layout) + "/" + info.path : "";
    out.kernels.push_back(KernelTiming{k.kernel, k.combine, k.block, ms, out.copy_ms / ms, path,
                                       x_passes(facts, info), fast ? info.hbm_bytes : copy_bytes});
  }
  return out;
}

Bf16Timing time_fast_bf16(std::int64_t rows, std::int64_t cols, int repetitions) {
  validate_shape(KernelKind::Fast, CombineKind::Hardened, 256, rows, cols);
  if (repetitions < 1) throw InvalidLaunch("repetitions must be at least 1");
  const auto n = static_cast<std::size_t>(rows * cols);
  const std::vector<float> values = bench_data(rows, cols);
  std::vector<std::uint16_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = bf16_bits_of(values[i]);
  cuda::DeviceBuffer<std::uint16_t> x(host.data(), n), y(n);
  cuda::DeviceBuffer<State> st(static_cast<std::size_t>(rows));
  cuda::DeviceBuffer<unsigned char> workspace(cuda::fast_workspace_bytes(rows, cols));
  if (workspace.size() > 0) OSVS_CUDA_CHECK(cudaMemset(workspace.get(), 0, workspace.size()));
  Bf16Timing t{};
  t.copy_ms = copy_ms(x.get(), y.get(), n * sizeof(std::uint16_t), repetitions);
  t.ms = median_ms(
      [&] {
        cuda::launch_fast_softmax_bf16(x.get(), y.get(), st.get(), rows, cols, workspace.get(),
                                       nullptr);
      },
      repetitions);
  OSVS_CUDA_CHECK(cudaDeviceSynchronize());
  t.fraction_of_copy = t.copy_ms / t.ms;
  return t;
}

LaunchTiming time_launch_against_copy(std::int64_t rows, std::int64_t cols,
                                      const std::function<void(const float* x, float* y)>& launch,
                                      int repetitions) {
  if (rows < 1 || cols < 1) throw InvalidLaunch("time_launch_against_copy: empty matrix");
  if (repetitions < 1) throw InvalidLaunch("repetitions must be at least 1");
  const auto n = static_cast<std::size_t>(rows * cols);
  const std::vector<float> host = bench_data(rows, cols);
  cuda::DeviceBuffer<float> x(host.data(), n), y(n);
  LaunchTiming t{};
  t.copy_ms = copy_ms(x.get(), y.get(), n * sizeof(float), repetitions);
  t.ms = median_ms([&] { launch(x.get(), y.get()); }, repetitions);
  OSVS_CUDA_CHECK(cudaGetLastError());
  OSVS_CUDA_CHECK(cudaDeviceSynchronize());
  t.fraction_of_copy = t.copy_ms / t.ms;
  return t;
}

}  // namespace osvs
