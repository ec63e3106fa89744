// Host <-> device copies of pageable host memory, as DMAs through pinned staging buffers, ordered
// on a stream. The row and merge runners' device half and the executors' buffers (DeviceBuffer,
// StreamBuffer) copy through these two calls; the exhaustive tools (exhaustive/src) and a few
// kernel tests still copy with plain cudaMemcpy on the legacy stream they launch on.
//
// Why: on the H200, with another process keeping the copy engines busy, copies from and to
// pageable memory of more than 64 KiB gave outputs back that still held what the host had put
// there before the launch, whether the copies were plain cudaMemcpy or cudaMemcpyAsync on the
// launch's stream followed by a wait; through pinned staging the verdicts beside that load are
// the verdicts without it (reports/gpu/2026-12-01-runner).
//
// Each host thread has two pinned halves of kPinnedChunkBytes per device, allocated on first
// use: a copy goes through them in chunks, the host's memcpy of one chunk overlapping the DMA of
// the other. Both calls return once the bytes have arrived (the staging is free again), so that
// what the caller does next needs no further wait. Errors throw std::runtime_error naming the call.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace osvs::cuda {

/// The size of each of a thread's two pinned staging halves.
inline constexpr std::size_t kPinnedChunkBytes = std::size_t{16} << 20;

/// Copies n bytes from pageable host memory to device memory, ordered on `stream` after the work
/// already queued there, and waits until they are on the device.
void copy_to_device(void* device, const void* host, std::size_t n, cudaStream_t stream);

/// Copies n bytes from device memory to pageable host memory, ordered on `stream` after the work
/// already queued there (a kernel's writes included), and waits until they are in `host`.
void copy_to_host(void* host, const void* device, std::size_t n, cudaStream_t stream);

}  // namespace osvs::cuda
