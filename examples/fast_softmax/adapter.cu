// Puts example::fast_softmax under osvs: the whole adapter.
#include <osvs/osvs.h>

#include <cmath>

#include "fast_softmax.h"

OSVS_REGISTER_ROW_KERNEL(fast_softmax) {
  // __expf's documented error is 2 + 1.173 |a| ulp at a = x - m; the rounding of x - m adds up
  // to |a| ulp more, exp(x_j - m) and the sum each carry it, and the per-thread sums of n / 32
  // terms add one ulp per term.
  const auto ulps = [](std::int64_t n, double range) {
    return 2 * (2 + 2.2 * range) + static_cast<double>(n) / 32 + 8;
  };
  return osvs::RowKernel("example.fast_softmax", osvs::Where::Device)
      .softmax()
      .run([](const osvs::RowProblem& p) {
        example::fast_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols,
                              p.cuda_stream<cudaStream_t>());
      })
      .strided(false)
      .vector_width(4)
      .block(256)
      .accuracy(osvs::Accuracy::ulps(ulps, "2 (2 + 2.2 range) + n / 32 + 8"))
      .known_defect("batch_invariance",
                    "the float4 body starts at the row's first 16-byte "
                    "boundary: the reduction order follows the row's address");
}
