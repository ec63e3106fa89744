// Launching a kernel on thread-block clusters: cudaLaunchKernelEx with the cluster-dimension
// attribute. Used by the fast kernel's cluster rows (fast_launch.cu) and by the cluster probe of
// bench/ (fast_cluster_probe.cu). Throws std::runtime_error when the launch fails.
#pragma once

#include <cuda_runtime.h>

#include "../cuda_check.cuh"

namespace osvs::cuda::fast {

/// The launch configuration of `grid` blocks of `block` threads and `smem` bytes of dynamic shared
/// memory on `stream`, in clusters of `cluster` consecutive blocks (1: no cluster). Points at
/// its own attribute: not copyable.
struct ClusterConfig {
  cudaLaunchAttribute attribute{};
  cudaLaunchConfig_t config{};
  ClusterConfig(unsigned grid, unsigned block, unsigned cluster, std::size_t smem,
                cudaStream_t stream) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = cluster;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = cluster > 1 ? 1 : 0;
  }
  ClusterConfig(const ClusterConfig&) = delete;
  ClusterConfig& operator=(const ClusterConfig&) = delete;
};

/// Enqueues `kernel` on `grid` blocks of `block` threads on `stream`, grouped in clusters of
/// `cluster` consecutive blocks (1: a plain launch; grid must be a multiple of cluster), with
/// `smem` bytes of dynamic shared memory.
template <class... Params, class... Args>
void launch_in_clusters_smem(void (*kernel)(Params...), unsigned grid, unsigned block,
                             unsigned cluster, std::size_t smem, cudaStream_t stream,
                             Args... args) {
  const ClusterConfig c(grid, block, cluster, smem, stream);
  OSVS_CUDA_CHECK(cudaLaunchKernelEx(&c.config, kernel, args...));
}

/// launch_in_clusters_smem without dynamic shared memory.
template <class... Params, class... Args>
void launch_in_clusters(void (*kernel)(Params...), unsigned grid, unsigned block, unsigned cluster,
                        cudaStream_t stream, Args... args) {
  launch_in_clusters_smem(kernel, grid, block, cluster, 0, stream, args...);
}

}  // namespace osvs::cuda::fast
