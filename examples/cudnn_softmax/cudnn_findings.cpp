#include "cudnn_findings.h"

namespace example {

osvs::RowKernel& cudnn_as_found(osvs::RowKernel& k, const std::string& name) {
  // A fully masked row gives NaN (0/0, as PyTorch) for most lengths, but 0 (log: -inf) for
  // others (N = 7, 33, 255, 257 on the H200): no convention holds for every N.
  if (name == "accurate.f16" || name == "accurate.bf16")
    k.known_defect("accuracy", "a fully masked row gives NaN or 0 depending on N");
  // Every mode and type: no batch of 2^31 elements or more (M * N >= 2^31).
  k.known_defect("large_batch",
                 "cudnnSetTensor4dDescriptorEx returns CUDNN_STATUS_NOT_SUPPORTED for a tensor of "
                 "2^31 elements or more (H200, cuDNN 9.14)");
  // Every mode: outputs depend on the row stride (padded rows differ from dense ones by an ulp).
  k.known_defect("strided", "padded and dense rows give different last bits");
  if (name == "accurate.f32")
    k.known_defect("accuracy",
                   "outputs far below the maximum carry up to ~67 ulp (the rounding "
                   "of x - m amplified by exp), long rows up to 82 ulp")
        .known_defect("permutation", "judged within the 4-ulp contract, which accuracy breaks");
  if (name == "log.f32" || name == "log.f16")
    k.known_defect("accuracy",
                   "x - lse cancels: the dominant element gives 0 where the exact "
                   "value is a tiny negative number; rows of FLT_MAX give 0")
        .known_defect("permutation", "judged within the 4-ulp contract, which accuracy breaks");
  if (name == "log.f32")
    k.known_defect("shift_invariance",
                   "judged within the contract; x - lse loses the digits "
                   "of large |x|");
  if (name == "fast.f32")
    k.known_defect("accuracy",
                   "a row holding +inf gives 0 for its finite elements: neither "
                   "NaN nor the limit");
  return k;
}

}  // namespace example
