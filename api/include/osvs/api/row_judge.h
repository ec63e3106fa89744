// One row's outputs judged against the exact values and the kernel's declarations: the finite
// rows by the accuracy contract, the special rows by the declared conventions. The laws and the
// audit both judge through here.
#pragma once

#include <cstdint>
#include <string>

#include "osvs/api/row_kernel.h"
#include "osvs/kernels/hex.h"
#include "osvs/properties/verdict.h"

namespace osvs::api {

struct RowJudgement {
  bool special = false;           ///< a NaN, +inf, fully masked or empty row (conventions)
  bool judged = false;            ///< false for a finite row of a kernel without contract
  double worst_ulp = 0;           ///< finite rows: the largest distance from the exact value
  double worst_ratio = 0;         ///< finite rows with a contract: largest distance / tolerance
  std::int64_t worst_index = -1;  ///< its element
  std::int64_t violations = 0;    ///< elements outside the contract or the conventions
  Verdict verdict;                ///< fails at the first violation; not judged without contract
};

RowJudgement judge_row(const RowKernel& k, const float* x, std::int64_t n, const float* y,
                       const std::string& where);

using osvs::digits9;
using osvs::hex;
using osvs::readable;

}  // namespace osvs::api
