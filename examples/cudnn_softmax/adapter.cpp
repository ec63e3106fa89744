// Puts cuDNN's softmax under osvs: three algorithms, three element types, one adapter.
#include <osvs/osvs.h>

#include "cudnn_findings.h"
#include "cudnn_softmax.h"

namespace {
osvs::DType osvs_type(cudnnDataType_t t) {
  return t == CUDNN_DATA_HALF       ? osvs::DType::F16
         : t == CUDNN_DATA_BFLOAT16 ? osvs::DType::BF16
                                    : osvs::DType::F32;
}

const bool registered = [] {
  for (const example::CudnnMode& m : example::kCudnnModes) {
    osvs::RowKernel k(std::string("cudnn.") + m.name, osvs::Where::Device);
    k.op(m.algo == CUDNN_SOFTMAX_LOG ? osvs::RowOp::LogSoftmax : osvs::RowOp::Softmax)
        .types(osvs_type(m.type), osvs_type(m.type))
        .run([m](const osvs::RowProblem& p) {
          example::cudnn_softmax(m.algo, m.type, p.x_ptr, p.y_ptr, p.rows, p.cols, p.x_stride,
                                 p.y_stride, p.cuda_stream<cudaStream_t>());
        })
        // What we expect of a library softmax; FAST (no max subtraction) promises nothing.
        .accuracy(m.algo == CUDNN_SOFTMAX_FAST ? osvs::Accuracy::none() : osvs::Accuracy::ulps(4));
    osvs::register_kernel(example::cudnn_as_found(k, m.name));
  }
  return true;
}();
}  // namespace
