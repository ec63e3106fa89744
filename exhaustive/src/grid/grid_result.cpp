// A grid result's declarations (from the registry entry) and its laws (from the tally).
#include "osvs/exhaustive/grid/grid_result.h"
#include "osvs/exhaustive/grid/grid_run.h"
#include "osvs/kernels/combine_operator.h"

namespace osvs::exhaustive::grid {

GridResult empty_result(CombineKind op, const GridSpec& spec, const char* executor,
                        double exp_ulp) {
  GridResult r;
  r.combine = to_string(op);
  if (is_mutant(op)) {
    r.original = to_string(original_of(op));
    r.defect = op.op().defect ? op.op().defect : "";
  }
  r.executor = executor;
  r.exp_ulp = exp_ulp;
  r.spec = spec;
  r.initial = op.op().host.initial();
  return r;
}

void take_tally(GridResult& r, GridTally& t, CombineKind op) {
  t.finish();
  r.laws = t.laws;
  const CombineAlgebra a = algebra_of(op);  // a mutant: its original's claims
  r.law(Law::Commutativity).held = a.bitwise_commutative;
  r.law(Law::Identity).held = a.exact_identity;
  r.law(Law::FiniteIdentity).held = true;
  r.law(Law::OneStepBound).held = true;
  r.worst_ratio = t.worst_ratio;
  r.worst = t.worst;
}

}  // namespace osvs::exhaustive::grid
