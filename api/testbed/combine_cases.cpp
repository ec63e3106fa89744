// Combine operators' cases for the law runs (kind_cases.h): the property suite's generators of
// the combine laws, written once (properties/src/suite.cpp), as the combine kind's values; and
// the one reduction RapidCheck's shrinking of a vector of states does not always reach: fewer
// states, a pair at a time where the law reads pairs.
#include "kind_cases.h"
#include "osvs/properties/suite.h"

namespace osvs::testbed {

rc::Gen<CombineCase> law_cases(const CombineKernel& k, const CombineLaw& law) {
  return rc::gen::map(find_law(combine_laws(combine_handle(k)), law.name).cases, [](const Case& s) {
    return CombineCase{s.states, s.state_format, s.rows, s.schedules};
  });
}

void reduce_case(const CombineKernel&, const CombineCase& smallest,
                 const Reduction<CombineCase>& r) {
  // commutativity reads the states as pairs (a, b): a pair goes at once. Any even count of
  // states is a pair count for it, and each other law reads states one by one.
  const std::size_t step = smallest.states.size() % 2 == 0 ? 2 : 1;
  for (std::size_t i = 0;
       i + step <= smallest.states.size() && smallest.states.size() > step && !r.out_of_time();) {
    CombineCase candidate = smallest;
    candidate.states.erase(candidate.states.begin() + static_cast<std::ptrdiff_t>(i),
                           candidate.states.begin() + static_cast<std::ptrdiff_t>(i + step));
    if (!r.accept(candidate)) i += step;
  }
}

}  // namespace osvs::testbed
