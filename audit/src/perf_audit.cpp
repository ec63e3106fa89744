#include "osvs/audit/perf_audit.h"

#include <exception>

#include "osvs/kernels/softmax_kernel_fns.h"

namespace osvs::audit {

double three_over_two(const ShapeTiming& s, CombineKind combine) {
  double three = 0, two = 0;
  // The lesson's claim: the baseline that folds with no combine (max, then sum) against the
  // combine's own 2-pass kernel.
  for (const KernelTiming& k : s.kernels) {
    const SoftmaxKernelFns& facts = builtin_softmax_kernel(k.kernel);
    if (facts.order == ReductionOrder::MaxThenSumBlock) three = k.ms;
    if (facts.is_combine_two_pass && k.combine == combine) two = k.ms;
  }
  return three > 0 && two > 0 ? three / two : 0;
}

PerfAudit audit_performance(const std::vector<KernelUnderTest>& kernels, const Executor& executor) {
  PerfAudit p;
  if (!executor.is_gpu()) {
    p.skipped_because = std::string("the ") + executor.name() +
                        " executor has no device to time (run with --executor cuda on a GPU)";
    return p;
  }
  std::vector<TimedKernel> timed;
  for (const KernelUnderTest& k : kernels) timed.push_back({k.kernel, k.combine, kPerfBlock});
  try {
    for (const Shape& s : kPerfShapes)
      p.shapes.push_back(time_softmax_kernels(s.rows, s.cols, timed));
    p.ran = true;
  } catch (const std::exception& e) {
    p.skipped_because = std::string("timing failed: ") + e.what();
    p.shapes.clear();
  }
  return p;
}

}  // namespace osvs::audit
