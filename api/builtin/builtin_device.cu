// osvs's own CUDA kernels registered through the public API (see builtin_host.cpp).
#include <cuda_runtime.h>

#include <stdexcept>

#include "builtin_merge.h"
#include "builtin_shapes.h"
#include "osvs/kernels/attention/merge_states_launch.h"
#include "osvs/kernels/cuda_launch.h"
#include "osvs/kernels/validate.h"

namespace osvs::builtin {
namespace {

void run_device(const Shape& s, const RowProblem& p) {
  // What the executor checks before every launch (a batch the kernel cannot index, a block size
  // it was not built for): refused with InvalidLaunch, never launched.
  validate_shape(s.kernel, s.combine, s.block, p.rows, p.cols);
  // The kernels write each row's state too: scratch the adapter owns for the launch.
  State* states = nullptr;
  const auto stream = p.cuda_stream<cudaStream_t>();
  if (cudaMallocAsync(reinterpret_cast<void**>(&states),
                      sizeof(State) * static_cast<std::size_t>(p.rows > 0 ? p.rows : 1),
                      stream) != cudaSuccess)
    throw std::runtime_error("cudaMallocAsync of the row states failed");
  cuda::launch_softmax(s.kernel, s.combine, s.block, p.x<float>(), p.y<float>(), states, p.rows,
                       p.cols, stream);
  if (cudaFreeAsync(states, stream) != cudaSuccess)
    throw std::runtime_error("cudaFreeAsync of the row states failed");
}

const bool registered = (register_shapes(Where::Device, run_device), true);

const bool merge_registered =
    (register_kernel(declare_merge(Where::Device).run([](const MergeProblem& p) {
       cuda::launch_merge_states(p.o_type, p.o_a_ptr, p.lse_a, p.o_b_ptr, p.lse_b, p.o_out_ptr,
                                 p.lse_out, p.rows, p.head_dim, p.base, p.stream);
     })),
     true);

}  // namespace
}  // namespace osvs::builtin
