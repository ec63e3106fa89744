#include "root_judge.h"

#include <cmath>

#include "osvs/kernels/combine_operator.h"
#include "osvs/oracle/bounds.h"
#include "osvs/oracle/ulp.h"
#include "support.h"

namespace osvs::props {

// The oracle's d carries a relative error r <= kReferenceRelErr (reference.h): for a kernel bound
// b < 1, |d_hat - d_ref| / d_ref <= (b + r) / (1 - r) < b + 2r + 2br < b + 4r.
inline constexpr double kOracleDSlack = 4 * oracle::kReferenceRelErr;

Verdict judge_root(State root, const oracle::RowReference& ref, const HarnessCase& hc,
                   CombineKind combine, double exp_ulp, const std::string& what) {
  if (ref.kind == oracle::RowKind::Empty) {
    // A mutant must start from the initial state of the operator it was derived from.
    const State init = original_of(combine).op().host.initial();
    if (bitwise_equal(root, init)) return Verdict::pass();
    return Verdict::fail(what + ": empty row gives " + hex(root) + ", not the initial state " +
                         hex(init));
  }
  if (ref.kind != oracle::RowKind::Finite)
    return Verdict::vacuous(std::string("row kind ") + oracle::to_string(ref.kind));
  if (bits(root.m) != bits(ref.m))
    return Verdict::fail(what + ": m = " + hex(root.m) + " but the row maximum is " + hex(ref.m),
                         {{what + " m", root.m, ref.m, 0, 0}});
  const double bound = oracle::harness_d_bound(hc, original_of(combine), exp_ulp);
  const double rel = std::fabs(static_cast<double>(root.d) - ref.d) / ref.d;
  const Evidence ev{what + " d", root.d, ref.d, oracle::ulp_distance(root.d, ref.d),
                    bound * 0x1p24};  // relative bound b allows at most b * 2^24 ulps
  if (!(rel <= bound + kOracleDSlack))
    return Verdict::fail(what + ": d = " + readable(root.d) + " has relative error " +
                             digits9(rel) + " > bound " + digits9(bound) +
                             " (exact d = " + readable(ref.d) + ")",
                         {ev});
  Verdict v;
  v.evidence.push_back(ev);
  return v;
}

}  // namespace osvs::props
