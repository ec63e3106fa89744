// Puts cuDNN's softmax under osvs: three algorithms, three element types, one adapter.
#include <osvs/osvs.h>

#include "cudnn_softmax.h"

namespace {
using osvs::DType;
struct Mode {
  const char* name;
  cudnnSoftmaxAlgorithm_t algo;
  DType type;
  cudnnDataType_t dt;
};
const Mode kModes[] = {{"accurate.f32", CUDNN_SOFTMAX_ACCURATE, DType::F32, CUDNN_DATA_FLOAT},
                       {"fast.f32", CUDNN_SOFTMAX_FAST, DType::F32, CUDNN_DATA_FLOAT},
                       {"log.f32", CUDNN_SOFTMAX_LOG, DType::F32, CUDNN_DATA_FLOAT},
                       {"accurate.f16", CUDNN_SOFTMAX_ACCURATE, DType::F16, CUDNN_DATA_HALF},
                       {"log.f16", CUDNN_SOFTMAX_LOG, DType::F16, CUDNN_DATA_HALF},
                       {"accurate.bf16", CUDNN_SOFTMAX_ACCURATE, DType::BF16, CUDNN_DATA_BFLOAT16}};

const bool registered = [] {
  for (const Mode& m : kModes)
    osvs::register_row_kernel(
        osvs::RowKernel(std::string("cudnn.") + m.name, osvs::Where::Device)
            .op(m.algo == CUDNN_SOFTMAX_LOG ? osvs::RowOp::LogSoftmax : osvs::RowOp::Softmax)
            .types(m.type, m.type)
            .run([m](const osvs::RowProblem& p) {
              example::cudnn_softmax(m.algo, m.dt, p.x_ptr, p.y_ptr, p.rows, p.cols, p.x_stride,
                                     p.y_stride, p.cuda_stream<cudaStream_t>());
            })
            // What we expect of a library softmax; FAST (no max subtraction) promises nothing.
            .accuracy(m.algo == CUDNN_SOFTMAX_FAST ? osvs::Accuracy::none()
                                                   : osvs::Accuracy::ulps(4)));
  return true;
}();
}  // namespace
