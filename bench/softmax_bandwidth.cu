// Bandwidth of each softmax kernel as a fraction of a device-to-device copy of the same matrix,
// both measured in the same run with CUDA events (median of the timed repetitions).
//
// A softmax must read the matrix once and write it once, exactly the traffic of a copy, so
// copy_time / kernel_time is the fraction of achievable bandwidth the kernel reaches.
//
// usage: osvs_softmax_bench [OUT.json]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/kernels/cuda_launch.h"
#include "osvs/kernels/validate.h"

namespace {

#define CHECK(call)                                                                 \
  do {                                                                              \
    const cudaError_t s_ = (call);                                                  \
    if (s_ != cudaSuccess)                                                          \
      throw std::runtime_error(std::string(#call) + ": " + cudaGetErrorString(s_)); \
  } while (0)

struct Shape {
  std::int64_t rows, cols;
};

struct Config {
  osvs::KernelKind kernel;
  osvs::CombineKind combine;
  int block;
  const char* label;
};

/// Median time in ms of `reps` runs of f, after 3 warm-up runs.
template <class F>
double median_ms(F&& f, int reps) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(start));
    f();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    t.push_back(ms);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) try {
  const std::vector<Shape> shapes = {{16384, 1024}, {4096, 8192}, {1024, 32768}, {64, 1048576}};
  const std::vector<Config> configs = {
      {osvs::KernelKind::TwoPass, osvs::CombineKind::Seed, 256, "seed 2-pass (B=256)"},
      {osvs::KernelKind::TwoPass, osvs::CombineKind::Hardened, 256, "hardened 2-pass (B=256)"},
      {osvs::KernelKind::ThreePass, osvs::CombineKind::Seed, 256, "3-pass (B=256)"},
      {osvs::KernelKind::TwoPass, osvs::CombineKind::Seed, 1024, "seed 2-pass (B=1024)"},
      {osvs::KernelKind::TwoPass, osvs::CombineKind::Hardened, 1024, "hardened 2-pass (B=1024)"},
      {osvs::KernelKind::ThreePass, osvs::CombineKind::Seed, 1024, "3-pass (B=1024)"},
  };
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0;
  CHECK(cudaDriverGetVersion(&driver));
  nlohmann::json out;
  out["device"] = prop.name;
  out["driver"] = driver;
  out["results"] = nlohmann::json::array();
  std::printf("device: %s, driver %d\n", prop.name, driver);
  std::printf("%-14s %-26s %10s %10s %9s\n", "shape", "kernel", "time(ms)", "GB/s", "of copy");
  for (const Shape& s : shapes) {
    const std::size_t n = static_cast<std::size_t>(s.rows * s.cols);
    std::vector<float> host(n);
    std::mt19937 rng(42);
    std::normal_distribution<float> normal(0.0f, 10.0f);
    for (float& v : host) v = normal(rng);
    float *x, *y;
    osvs::State* st;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMalloc(&st, s.rows * sizeof(osvs::State)));
    CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const double bytes = 2.0 * n * sizeof(float);
    const double copy_ms = median_ms(
        [&] { CHECK(cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice)); }, 20);
    const std::string shape = std::to_string(s.rows) + "x" + std::to_string(s.cols);
    std::printf("%-14s %-26s %10.4f %10.1f %8.1f%%\n", shape.c_str(), "device copy", copy_ms,
                bytes / copy_ms / 1e6, 100.0);
    nlohmann::json row{
        {"shape", shape}, {"copy_ms", copy_ms}, {"copy_GBps", bytes / copy_ms / 1e6}};
    for (const Config& c : configs) {
      osvs::validate_shape(c.kernel, c.combine, c.block, s.rows, s.cols);
      const double ms = median_ms(
          [&] {
            osvs::cuda::launch_softmax(c.kernel, c.combine, c.block, x, y, st, s.rows, s.cols,
                                       nullptr);
          },
          20);
      CHECK(cudaDeviceSynchronize());
      std::printf("%-14s %-26s %10.4f %10.1f %8.1f%%\n", shape.c_str(), c.label, ms,
                  bytes / ms / 1e6, 100.0 * copy_ms / ms);
      row["kernels"][c.label] = {
          {"ms", ms}, {"GBps", bytes / ms / 1e6}, {"fraction_of_copy", copy_ms / ms}};
    }
    out["results"].push_back(row);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(st));
  }
  if (argc > 1) std::ofstream(argv[1]) << out.dump(2) << "\n";
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_softmax_bench: %s\n", e.what());
  return 1;
}
