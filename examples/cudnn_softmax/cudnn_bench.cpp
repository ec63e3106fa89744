// cuDNN's softmax in osvs's bandwidth table: cudnnSoftmaxForward (ACCURATE, float) on the issue's
// four shapes, as a fraction of a device copy of the same matrix timed in the same process
// (osvs::time_launch_against_copy, kernels/bandwidth.h: the same data and the same median as
// osvs_softmax_bench's kernels).
//
// usage: example_cudnn_bench [OUT.json]
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cudnn_softmax.h"
#include "osvs/kernels/bandwidth.h"

int main(int argc, char** argv) try {
  const std::int64_t shapes[][2] = {{16384, 1024}, {4096, 8192}, {1024, 32768}, {64, 1048576}};
  nlohmann::json out{{"cudnn_version", example::cudnn_version()},
                     {"results", nlohmann::json::array()}};
  std::printf("cuDNN %zu\n%-14s %-30s %10s %10s %9s\n", example::cudnn_version(), "shape", "kernel",
              "time(ms)", "copy(ms)", "of copy");
  for (const auto& s : shapes) {
    const std::int64_t M = s[0], N = s[1];
    const osvs::LaunchTiming t =
        osvs::time_launch_against_copy(M, N, [&](const float* x, float* y) {
          example::cudnn_softmax(CUDNN_SOFTMAX_ACCURATE, CUDNN_DATA_FLOAT, x, y, M, N, N, N,
                                 nullptr);
        });
    const std::string shape = std::to_string(M) + "x" + std::to_string(N);
    std::printf("%-14s %-30s %10.4f %10.4f %8.1f%%\n", shape.c_str(), "cudnn accurate.f32", t.ms,
                t.copy_ms, 100.0 * t.fraction_of_copy);
    out["results"].push_back({{"shape", shape},
                              {"kernel", "cudnn/accurate.f32"},
                              {"ms", t.ms},
                              {"copy_ms", t.copy_ms},
                              {"fraction_of_copy", t.fraction_of_copy}});
  }
  if (argc > 1) std::ofstream(argv[1]) << out.dump(2) << "\n";
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "example_cudnn_bench: %s\n", e.what());
  return 1;
}
