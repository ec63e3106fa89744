// cudnnSoftmaxForward over an M x N row-major batch (softmax over each row's N values): the
// user's wrapper around cuDNN that the adapter puts under test.
#pragma once

#include <cuda_runtime.h>
#include <cudnn.h>

#include <cstdint>

namespace example {

/// y = softmax(x) (or log-softmax for CUDNN_SOFTMAX_LOG) with cuDNN's `algo`, in element type
/// `type` (CUDNN_DATA_FLOAT / HALF / BFLOAT16) for x and y, rows ldx / ldy elements apart.
/// Throws std::runtime_error with cuDNN's message on any failing call.
void cudnn_softmax(cudnnSoftmaxAlgorithm_t algo, cudnnDataType_t type, const void* x, void* y,
                   std::int64_t M, std::int64_t N, std::int64_t ldx, std::int64_t ldy,
                   cudaStream_t stream);

/// cuDNN's version as a number (e.g. 91300).
std::size_t cudnn_version();

/// The modes under test: ACCURATE, FAST and LOG in float, ACCURATE and LOG in half, ACCURATE in
/// bfloat16.
struct CudnnMode {
  const char* name;  ///< "accurate.f32", ...
  cudnnSoftmaxAlgorithm_t algo;
  cudnnDataType_t type;
};
inline constexpr CudnnMode kCudnnModes[] = {
    {"accurate.f32", CUDNN_SOFTMAX_ACCURATE, CUDNN_DATA_FLOAT},
    {"fast.f32", CUDNN_SOFTMAX_FAST, CUDNN_DATA_FLOAT},
    {"log.f32", CUDNN_SOFTMAX_LOG, CUDNN_DATA_FLOAT},
    {"accurate.f16", CUDNN_SOFTMAX_ACCURATE, CUDNN_DATA_HALF},
    {"log.f16", CUDNN_SOFTMAX_LOG, CUDNN_DATA_HALF},
    {"accurate.bf16", CUDNN_SOFTMAX_ACCURATE, CUDNN_DATA_BFLOAT16}};

}  // namespace example
