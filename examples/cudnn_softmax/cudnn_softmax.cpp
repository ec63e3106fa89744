#include "cudnn_softmax.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace example {
namespace {

void check(cudnnStatus_t s, const char* what) {
  if (s != CUDNN_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": " + cudnnGetErrorString(s));
}

/// One handle for the process (creating one per call costs milliseconds).
cudnnHandle_t handle() {
  static cudnnHandle_t h = [] {
    cudnnHandle_t created = nullptr;
    check(cudnnCreate(&created), "cudnnCreate");
    return created;
  }();
  return h;
}

struct Tensor {
  cudnnTensorDescriptor_t d = nullptr;
  Tensor(cudnnDataType_t type, std::int64_t M, std::int64_t N, std::int64_t ld) {
    check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor");
    // NCHW with C = the row: CHANNEL mode takes the softmax over C for each n.
    check(cudnnSetTensor4dDescriptorEx(d, type, static_cast<int>(M), static_cast<int>(N), 1, 1,
                                       static_cast<int>(ld), 1, 1, 1),
          "cudnnSetTensor4dDescriptorEx");
  }
  ~Tensor() { cudnnDestroyTensorDescriptor(d); }
};

}  // namespace

void cudnn_softmax(cudnnSoftmaxAlgorithm_t algo, cudnnDataType_t type, const void* x, void* y,
                   std::int64_t M, std::int64_t N, std::int64_t ldx, std::int64_t ldy,
                   cudaStream_t stream) {
  if (M == 0 || N == 0) return;  // cuDNN refuses empty tensors
  const std::int64_t int_max = std::numeric_limits<int>::max();
  if (M > int_max || N > int_max || ldx > int_max || ldy > int_max)
    throw std::invalid_argument("cuDNN tensors have int dimensions");
  check(cudnnSetStream(handle(), stream), "cudnnSetStream");
  const Tensor xd(type, M, N, ldx), yd(type, M, N, ldy);
  const float one = 1, zero = 0;
  check(cudnnSoftmaxForward(handle(), algo, CUDNN_SOFTMAX_MODE_CHANNEL, &one, xd.d, x, &zero, yd.d,
                            y),
        "cudnnSoftmaxForward");
}

std::size_t cudnn_version() {
  return cudnnGetVersion();
}

}  // namespace example
