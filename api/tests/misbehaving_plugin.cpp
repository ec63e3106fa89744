// A plugin whose kernels fail in every way a kernel can: the audit must report each by name,
// go on with the others and fail the release gate (api/tests/CMakeLists.txt checks the report).
#include <csignal>

#include "misbehaving_kernels.h"

namespace {
using osvs::RowProblem;
using osvs::test::good_softmax;
using osvs::test::host_kernel;

const bool registered = [] {
  osvs::register_kernel(host_kernel("bad.crashes", [](const RowProblem& p) {
    if (p.rows * p.cols > 0) std::raise(SIGSEGV);
  }));
  osvs::register_kernel(host_kernel(
      "bad.throws", [](const RowProblem&) { throw std::runtime_error("workspace too small"); }));
  osvs::register_kernel(host_kernel("bad.writes_past_the_end", [](const RowProblem& p) {
    good_softmax(p);
    p.y<float>()[p.rows * p.y_stride] = 0;
  }));
  osvs::register_kernel(osvs::RowKernel("bad.no_contract", osvs::Where::Host).run(good_softmax));
  osvs::register_kernel(host_kernel("good.softmax", good_softmax));
  // A merge kernel through the same plugin: it returns its first operand, so commutativity
  // and accuracy fail.
  osvs::register_kernel(osvs::MergeKernel("bad.merge_keeps_a", osvs::Where::Host)
                            .run([](const osvs::MergeProblem& p) {
                              for (std::int64_t r = 0; r < p.rows; ++r) {
                                p.lse_out[r] = p.lse_a[r];
                                for (int c = 0; c < p.head_dim; ++c)
                                  p.o_out<float>()[r * p.head_dim + c] =
                                      p.o_a<float>()[r * p.head_dim + c];
                              }
                            }));
  return true;
}();
}  // namespace
