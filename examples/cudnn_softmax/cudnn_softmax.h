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

/// cuDNN's version as a number (e.g. 91300) and the library it was loaded from.
std::size_t cudnn_version();

}  // namespace example
