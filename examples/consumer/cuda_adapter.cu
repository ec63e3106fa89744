// The adapter of the CUDA kernel: its signature to osvs's, its stream, and its derived contract.
#include <cuda_runtime.h>
#include <osvs/osvs.h>

void my_cuda_softmax(const float* x, float* y, std::int64_t m, std::int64_t n, cudaStream_t s);

OSVS_REGISTER_ROW_KERNEL(my_cuda_softmax) {
  // Relative errors first, in units of 2^-23 (u = 2^-24 is half of one), first order:
  //   a = fl(x_j - max): |a - (x_j - max)| <= u |x_j - max| <= u range, so exp(a) is off by a
  //     relative u range = range / 2; expf adds 2 (CUDA's documented 2 ulp): e_j within
  //     2 + range / 2;
  //   d: every term within 2 + range / 2; a lane adds ceil(n / 32) terms in sequence and the
  //     xor fold 5 more sums, each rounding at most u of the sum: (n / 32 + 6) / 2;
  //   the division: 1 / 2.
  // y_j is within eps = 4 + range + (n / 32 + 6) / 2 + 1 / 2 of y_j relatively; a relative
  // error eps is at most 2 eps ulp of y_j (|y_j| < 2^(e+1), ulp = 2^(e-23)), and below 2^-126
  // (subnormal outputs, ulp 2^-149) the absolute error of an underflowed e_j / d is at most its
  // own 2 ulp. Second-order terms: one ulp more.
  const auto ulps = [](std::int64_t n, double range) {
    return 2 * (4.5 + range) + static_cast<double>(n) / 32 + 7;
  };
  return osvs::RowKernel("my_cuda_softmax", osvs::Where::Device)
      .run([](const osvs::RowProblem& p) {
        my_cuda_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols, p.cuda_stream<cudaStream_t>());
      })
      .strided(false)
      .block(32)
      .accuracy(osvs::Accuracy::ulps(ulps, "2 (4.5 + range) + n / 32 + 7"));
}
