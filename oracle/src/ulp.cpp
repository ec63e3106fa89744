// The ULP metric of docs/semantics.md §4, computed on the unrounded reference (the per-element
// functions are inline in ulp.h).
#include "osvs/oracle/ulp.h"

#include <cmath>

namespace osvs::oracle {

double ulp_distance(float observed, double exact) {
  return ulp_distance(observed, exact, std::isfinite(exact) ? binade_of(exact) : 0);
}

}  // namespace osvs::oracle
