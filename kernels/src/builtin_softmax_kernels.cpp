// The built-in softmax kernels (softmax_kernel_fns.h): for each KernelKind its device launcher
// (cuda::launch_softmax, in builds with CUDA) and its CPU model, the order as written.
#include "osvs/kernels/algebras.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/fast_model.h"
#include "osvs/kernels/softmax_kernel_fns.h"
#include "osvs/kernels/validate.h"
#if defined(OSVS_WITH_CUDA)
#include "osvs/kernels/cuda_launch.h"
#endif

namespace osvs {
namespace {

/// The 2-pass kernel's model is its combine's (the operator's registry entry, combine_entry.h).
void two_pass_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  b.combine.op().host.two_pass_rows(b, r);
}

void three_pass_rows(const SoftmaxBatch& b, SoftmaxResult& r) {
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const float* row = b.x.data() + i * b.cols;
    const float m = model_block_reduce(row, b.cols, b.block, MaxAlg{});
    const float d = model_block_reduce(row, b.cols, b.block, SumExpAlg{m});
    r.row_state[i] = State{m, d};
    for (std::int64_t j = 0; j < b.cols; ++j) r.y[i * b.cols + j] = softmax_output(row[j], m, d);
  }
}

#if defined(OSVS_WITH_CUDA)
void launch_builtin(const SoftmaxLaunch& l) {
  cuda::launch_softmax(l.kernel, l.combine, l.block, l.x, l.y, l.row_state, l.rows, l.cols,
                       l.stream);
}
constexpr void (*kDeviceLaunch)(const SoftmaxLaunch&) = &launch_builtin;
#else
constexpr void (*kDeviceLaunch)(const SoftmaxLaunch&) = nullptr;  // no device code in this build
#endif

constexpr SoftmaxKernelFns kTwoPass{"two_pass", kDeviceLaunch, &two_pass_rows};
constexpr SoftmaxKernelFns kThreePass{"three_pass", kDeviceLaunch, &three_pass_rows};
constexpr SoftmaxKernelFns kFast{"fast", kDeviceLaunch, &fast_model_rows<FastSchedule>};

}  // namespace

const SoftmaxKernelFns& builtin_softmax_kernel(KernelKind kind) {
  switch (kind) {
    case KernelKind::TwoPass:
      return kTwoPass;
    case KernelKind::ThreePass:
      return kThreePass;
    case KernelKind::Fast:
      return kFast;
  }
  throw InvalidLaunch("unknown kernel kind");
}

}  // namespace osvs
