// osvs's own kernels registered through the public API, the path every user kernel takes: the
// CPU model of each (it replays the device kernel's reduction order with the host's expf), so
// that the black-box laws run on them where there is no GPU. Their contracts are the derived
// bounds of their reduction shapes; their conventions are the ones kernels/documented.h states.
#include <cstring>

#include "builtin_merge.h"
#include "builtin_shapes.h"
#include "osvs/api/merge_host_io.h"
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/kernels/executor.h"
#include "osvs/osvs.h"

namespace osvs::builtin {
namespace {

void run_cpu_model(const Shape& s, const RowProblem& p) {
  if (p.rows == 0 || p.cols == 0) return;  // nothing to write (and null pointers allowed)
  SoftmaxBatch b;
  b.kernel = s.kernel;
  b.combine = s.combine;
  b.block = s.block;
  b.rows = p.rows;
  b.cols = p.cols;
  b.x.resize(static_cast<std::size_t>(p.rows * p.cols));
  for (std::int64_t i = 0; i < p.rows; ++i)
    std::memcpy(b.x.data() + i * p.cols, p.x<float>() + i * p.x_stride,
                static_cast<std::size_t>(p.cols) * sizeof(float));
  static const auto model = make_cpu_executor();
  const SoftmaxResult r = model->softmax(b);
  for (std::int64_t i = 0; i < p.rows; ++i)
    std::memcpy(p.y<float>() + i * p.y_stride, r.y.data() + i * p.cols,
                static_cast<std::size_t>(p.cols) * sizeof(float));
}

const bool registered = (register_shapes(Where::Host, run_cpu_model), true);

const bool merge_registered = (register_kernel(merge_cpu_model_kernel()), true);

/// osvs's own combine operators through the testbed's white-box half, as a user's would be. The
/// seed does not claim the true identity (combine_seed.h): the laws are run to show it fails.
const bool combines_under_test =
    (register_combine_operator(
         &CombineKind::Seed.op(),
         CombineTest()
             .known_defect("identity_right", "(-inf, 0) is not its identity: -inf - -inf = NaN")
             .known_defect("identity_left", "(-inf, 0) is not its identity: -inf - -inf = NaN")),
     register_combine_operator(&CombineKind::Hardened.op(), CombineTest()), true);

}  // namespace
}  // namespace osvs::builtin
