// Bandwidth of each softmax kernel as a fraction of a device-to-device copy of the same matrix,
// both measured in the same run (osvs::time_softmax_kernels, kernels/bandwidth.h). The fast kernel
// runs on its plan's path (fast_plan.h) and, for split rows, on both split paths; "x reads" is
// how often a kernel reads x (the copy: once), "min MB" the traffic it cannot avoid. Last per
// shape: the fast kernel with bf16 input and output against a copy of the bf16 matrix.
//
// usage: osvs_softmax_bench [OUT.json]
#include <cuda_runtime.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/fast_plan.h"

int main(int argc, char** argv) try {
  using osvs::CombineKind;
  using osvs::KernelKind;
  const std::int64_t shapes[][2] = {{16384, 1024}, {4096, 8192}, {1024, 32768}, {64, 1048576}};
  std::vector<osvs::TimedKernel> kernels;
  for (int block : {256, 1024}) {
    kernels.push_back({KernelKind::TwoPass, CombineKind::Seed, block});
    kernels.push_back({KernelKind::TwoPass, CombineKind::Hardened, block});
    kernels.push_back({KernelKind::ThreePass, CombineKind::Seed, block});
  }
  using osvs::cuda::FastSplitPath;
  kernels.push_back({KernelKind::Fast, CombineKind::Hardened, 256, FastSplitPath::Auto});
  // Auto takes the staged cooperative path on these aligned rows; the two launches beside it
  const std::vector<osvs::TimedKernel> fast_split_paths = {
      {KernelKind::Fast, CombineKind::Hardened, 256, FastSplitPath::TwoLaunch}};
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) throw std::runtime_error("no CUDA device");
  nlohmann::json out{{"device", prop.name}, {"results", nlohmann::json::array()}};
  std::printf("device: %s\n%-14s %-40s %10s %10s %9s %7s %9s\n", prop.name, "shape", "kernel",
              "time(ms)", "GB/s", "of copy", "x reads", "min MB");
  for (const auto& s : shapes) {
    std::vector<osvs::TimedKernel> these = kernels;
    if (osvs::fast_plan(s[1]).chunks > 1)  // split rows: both paths side by side
      these.insert(these.end(), fast_split_paths.begin(), fast_split_paths.end());
    const osvs::ShapeTiming t = osvs::time_softmax_kernels(s[0], s[1], these);
    const std::string shape = std::to_string(s[0]) + "x" + std::to_string(s[1]);
    const double bytes = 2.0 * static_cast<double>(s[0] * s[1]) * sizeof(float);
    std::printf("%-14s %-40s %10.4f %10.1f %8.1f%% %7d %9.1f\n", shape.c_str(), "device copy",
                t.copy_ms, t.copy_gbps, 100.0, 1, bytes / 1e6);
    nlohmann::json row{{"shape", shape}, {"copy_ms", t.copy_ms}, {"copy_GBps", t.copy_gbps}};
    for (const osvs::KernelTiming& k : t.kernels) {
      const std::string name =
          k.kernel == KernelKind::Fast
              ? std::string("fast/") + k.path
              : std::string(to_string(k.kernel)) + "/" +
                    (k.kernel == KernelKind::ThreePass ? "-" : to_string(k.combine)) + "/B" +
                    std::to_string(k.block);
      std::printf("%-14s %-40s %10.4f %10.1f %8.1f%% %7d %9.1f\n", shape.c_str(), name.c_str(),
                  k.ms, bytes / k.ms / 1e6, 100.0 * k.fraction_of_copy, k.x_passes,
                  k.min_hbm_bytes / 1e6);
      row["kernels"][name] = {{"ms", k.ms},
                              {"fraction_of_copy", k.fraction_of_copy},
                              {"x_passes", k.x_passes},
                              {"min_hbm_bytes", k.min_hbm_bytes}};
    }
    const osvs::Bf16Timing b = osvs::time_fast_bf16(s[0], s[1]);
    std::printf("%-14s %-40s %10.4f %10.1f %8.1f%%\n", shape.c_str(), "bf16 device copy", b.copy_ms,
                bytes / 2 / b.copy_ms / 1e6, 100.0);
    std::printf("%-14s %-40s %10.4f %10.1f %8.1f%% %7d %9.1f\n", shape.c_str(), "fast bf16 in/out",
                b.ms, bytes / 2 / b.ms / 1e6, 100.0 * b.fraction_of_copy, 1, bytes / 2 / 1e6);
    row["bf16"] = {
        {"copy_ms", b.copy_ms}, {"fast_ms", b.ms}, {"fraction_of_copy", b.fraction_of_copy}};
    out["results"].push_back(row);
  }
  if (argc > 1) std::ofstream(argv[1]) << out.dump(2) << "\n";
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_softmax_bench: %s\n", e.what());
  return 1;
}
