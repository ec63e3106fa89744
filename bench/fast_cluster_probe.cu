// A diagnostic of the fast kernel's cluster rows (osvs issue 14): what grouping blocks into a
// thread-block cluster costs by itself, apart from the cluster's barriers and remote reads.
//
//   4096 x 8192    the block-row kernel (fast_row_kernel, 256 threads, a row a block) launched
//                  plainly and grouped into clusters of 2, 4 and 8 blocks that never use them
//                  (no barrier, no distributed shared memory): the same work, the same bytes
//   1024 x 32768   the cluster kernel (fast_cluster_kernel, 4 blocks of 256 a row), the same
//                  bytes as 4096 x 8192
//
// If the grouped launches keep the plain launch's fraction of a copy, the cluster rows lose
// their bandwidth to the barriers and remote reads; if they fall to the cluster kernel's
// fraction, to the scheduling of clusters. Timing only (the outputs of the grouped launches
// are the plain launch's; nothing here is checked against the model). Run on a GPU by hand.
// usage: osvs_fast_cluster_probe
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>

#include "cluster_launch.cuh"
#include "cuda_check.cuh"
#include "fast_kernels.cuh"
#include "osvs/kernels/bandwidth.h"

namespace {

using osvs::KernelMutation;
using osvs::State;
using osvs::cuda::fast::launch_in_clusters;

void print(const char* shape, const char* what, const osvs::LaunchTiming& t) {
  std::printf("%-12s %-44s %9.4f ms %9.4f ms %7.1f%%\n", shape, what, t.ms, t.copy_ms,
              100.0 * t.fraction_of_copy);
}

}  // namespace

int main() try {
  constexpr std::int64_t kRows = 4096, kCols = 8192, kLongRows = 1024, kLongCols = 32768;
  State* row_state = nullptr;
  OSVS_CUDA_CHECK(cudaMalloc(&row_state, kRows * sizeof(State)));
  std::printf("%-12s %-44s %12s %12s %8s\n", "shape", "launch", "time", "copy", "of copy");
  const auto block_row = osvs::cuda::fast::fast_row_kernel<float, 256, 8, 1, KernelMutation::None>;
  for (unsigned cluster : {1u, 2u, 4u, 8u}) {
    char what[64];
    std::snprintf(what, sizeof what, "block rows, clusters of %u (unused)", cluster);
    print("4096x8192", cluster == 1 ? "block rows, plain launch" : what,
          osvs::time_launch_against_copy(kRows, kCols, [&](const float* x, float* y) {
            launch_in_clusters(block_row, kRows, 256, cluster, nullptr, x, y, row_state, kRows,
                               kCols);
          }));
  }
  const auto cluster_row =
      osvs::cuda::fast::fast_cluster_kernel<float, 256, 8, KernelMutation::None>;
  print("1024x32768", "cluster rows, clusters of 4 (the kernel)",
        osvs::time_launch_against_copy(kLongRows, kLongCols, [&](const float* x, float* y) {
          launch_in_clusters(cluster_row, kLongRows * 4, 256, 4, nullptr, x, y, row_state,
                             kLongCols);
        }));
  OSVS_CUDA_CHECK(cudaFree(row_state));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "osvs_fast_cluster_probe: %s\n", e.what());
  return 1;
}
