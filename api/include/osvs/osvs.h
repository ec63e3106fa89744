// osvs: the one header a kernel adapter includes.
//
// Put a softmax or log-softmax kernel under osvs's properties, oracle and audit:
//
//   #include <osvs/osvs.h>
//   void my_softmax(const float* x, float* y, int64_t M, int64_t N, cudaStream_t s);
//
//   OSVS_REGISTER_ROW_KERNEL(my_softmax) {
//     return osvs::RowKernel("my_softmax", osvs::Where::Device)
//         .run([](const osvs::RowProblem& p) {
//           my_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols, p.cuda_stream<cudaStream_t>());
//         })
//         .strided(false)
//         .accuracy(osvs::Accuracy::ulps(8));
//   }
//
// and in CMake: osvs_add_kernel_test(NAME my_kernels SOURCES my_adapter.cu LIBRARIES my_lib).
// A merge of attention partials (o_a, lse_a, o_b, lse_b) -> (o, lse) is registered the same way
// with OSVS_REGISTER_MERGE_KERNEL and osvs::MergeKernel (merge_kernel.h).
// The README's "Test your own kernel" walks through it; api/README.md lists every declaration.
#pragma once

#include "osvs/api/accuracy.h"
#include "osvs/api/attention_kernel.h"
#include "osvs/api/combine.h"
#include "osvs/api/dtype.h"
#include "osvs/api/merge_kernel.h"
#include "osvs/api/registry.h"
#include "osvs/api/row_kernel.h"
#include "osvs/api/rowwise_kernel.h"
