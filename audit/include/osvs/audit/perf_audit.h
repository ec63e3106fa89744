// The performance audit (GPU only): each kernel's bandwidth as a fraction of a device-to-device
// copy timed in the same run, and the 3-pass / 2-pass time ratio per shape, set against the
// lesson's claim that online softmax is "30-50 % faster".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/audit/plan.h"
#include "osvs/kernels/bandwidth.h"
#include "osvs/kernels/executor.h"

namespace osvs::audit {

/// The shapes (rows x cols) the lesson's claim is tested on.
struct Shape {
  std::int64_t rows, cols;
};
inline constexpr Shape kPerfShapes[] = {{16384, 1024}, {4096, 8192}, {1024, 32768}, {64, 1 << 20}};

/// The block size timed (the lesson's kernels use 256 threads).
inline constexpr int kPerfBlock = 256;

struct PerfAudit {
  bool ran = false;
  std::string skipped_because;      ///< why not, when !ran
  std::vector<ShapeTiming> shapes;  ///< per shape: copy time and every kernel's time
};

/// 3-pass time / 2-pass time with `combine` on a shape (> 1: the 2-pass kernel is faster);
/// 0 when either kernel was not timed.
double three_over_two(const ShapeTiming& s, CombineKind combine);

/// Times every kernel of `kernels` on kPerfShapes when the executor is a GPU; otherwise (or when
/// timing fails) returns ran = false with the reason.
PerfAudit audit_performance(const std::vector<KernelUnderTest>& kernels, const Executor& executor);

}  // namespace osvs::audit
