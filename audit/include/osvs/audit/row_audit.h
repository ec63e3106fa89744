// One row's audit: its outputs and state against the oracle's correctly rounded reference and the
// kernel's derived bound (oracle/bounds.h), judged by the oracle's matcher.
#pragma once

#include <cstdint>
#include <string>

#include "osvs/audit/error_stats.h"
#include "osvs/audit/plan.h"
#include "osvs/kernels/index_loop.h"
#include "osvs/kernels/state.h"

namespace osvs::audit {

/// The element of a row with the largest error or error/bound ratio.
struct WorstElement {
  std::int64_t index = -1;
  float x = 0;
  float y = 0;           ///< the kernel's output
  double reference = 0;  ///< the exact output (double, relative error <= 2^-48)
  double ulp = 0;        ///< ulp_distance(y, reference)
  double bound = 0;      ///< the derived bound for this element, in ulps
};

struct RowAudit {
  double ratio = 0;          ///< max over elements of ulp / bound (the row's tightness)
  double y_bound_max = 0;    ///< largest per-element bound (ulps)
  WorstElement worst_ulp;    ///< element with the largest ulp error
  WorstElement worst_ratio;  ///< element with the largest ulp / bound
  double d_rel = 0;          ///< |d_hat - d| / d
  double d_bound = 0;        ///< derived bound on d_rel
  bool ok = true;            ///< every output within bound, m exact, d within bound
  std::string explanation;   ///< why not ok (matcher format: hex input, reference, observed)
  std::int64_t mpfr_fallbacks = 0;
};

/// Audits row x[0..n) whose outputs are y[0..n) and state `state`, for `kut` with `block` and an
/// exp of `exp_ulp` ulps. Adds every finite row's element errors to *stats when stats is not null.
/// A row with NaN or +inf, a fully masked or an empty row is held to the spec and the kernel's
/// documented outputs (kernels/documented.h) bit for bit instead.
/// `loops` may run the oracle's, the bound's and the comparison's per-element work on several
/// threads (long rows): the same audit, bit for bit.
RowAudit audit_row(const KernelUnderTest& kut, int block, const float* x, std::int64_t n,
                   const float* y, State state, double exp_ulp, ErrorStats* stats,
                   const IndexLoop* loops = nullptr);

}  // namespace osvs::audit
