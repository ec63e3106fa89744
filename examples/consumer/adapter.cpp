// The adapter: the kernel's signature to osvs's, its conventions and its contract.
#include <osvs/osvs.h>

void my_softmax(const float* x, float* y, std::int64_t m, std::int64_t n);

OSVS_REGISTER_ROW_KERNEL(my_softmax) {
  return osvs::RowKernel("my_softmax", osvs::Where::Host)
      .run(
          [](const osvs::RowProblem& p) { my_softmax(p.x<float>(), p.y<float>(), p.rows, p.cols); })
      .strided(false)
      .accuracy(osvs::Accuracy::ulps(1));
}
