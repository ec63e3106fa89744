// Launching a kernel on thread-block clusters: cudaLaunchKernelEx with the cluster-dimension
// attribute. Used by the fast kernel's cluster rows (fast_launch.cu) and by the cluster probe of
// bench/ (fast_cluster_probe.cu). Throws std::runtime_error when the launch fails.
#pragma once

#include <cuda_runtime.h>

#include "../cuda_check.cuh"

namespace osvs::cuda::fast {

/// Enqueues `kernel` on `grid` blocks of `block` threads on `stream`, grouped in clusters of
/// `cluster` consecutive blocks (1: a plain launch; grid must be a multiple of cluster).
template <class... Params, class... Args>
void launch_in_clusters(void (*kernel)(Params...), unsigned grid, unsigned block, unsigned cluster,
                        cudaStream_t stream, Args... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = cluster > 1 ? 1 : 0;
  OSVS_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
}

}  // namespace osvs::cuda::fast
