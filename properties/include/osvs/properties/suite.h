// The property suite: which generator goes with which registered property for a configuration
// family, written once. The RapidCheck tests, the mutation driver and anything else that runs
// "the suite" on a kernel configuration iterate law_suite().
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/properties/case.h"

namespace osvs {

/// Tags a generated case for RapidCheck's class distribution (RC_TAG); called inside a property.
using Classifier = std::function<void(const Case&)>;

/// One law of the suite: a registered property with the generator of its cases.
struct LawSpec {
  std::string property;                      ///< registry name (find_property)
  rc::Gen<Case> cases;                       ///< cases carrying the configuration's kernel,
                                             ///< combine and mutant; the block is generated
  Classifier classify = [](const Case&) {};  ///< tags each case
  std::size_t max_shrunk_states = 0;         ///< combine-level defects shrink to at most this many
                                             ///< states (0: no limit stated)
};

/// A combine-level defect shrinks to at most 4 states (2 pairs).
inline constexpr std::size_t kSmallCombineCase = 4;

/// The combine-level laws of `combine`: identity (both representations), commutativity, the
/// warp's shuffle tree and tree invariance, cheapest first.
std::vector<LawSpec> combine_laws(CombineKind combine);

/// The softmax-level laws of a kernel configuration (kernel, combine, mutant of
/// `configuration`): accuracy, sum, range, special values, permutation, shift, batch
/// invariance, determinism, agreement with the CPU model.
std::vector<LawSpec> softmax_laws(const Case& configuration);

/// Every law that exercises the configuration: its combine-level laws when the 2-pass kernel
/// runs unmutated (a kernel mutant leaves the operator as it is; the 3-pass kernel has none),
/// then its softmax-level laws.
std::vector<LawSpec> law_suite(const Case& configuration);

/// The law of `laws` for `property`; throws std::invalid_argument when there is none.
const LawSpec& find_law(const std::vector<LawSpec>& laws, std::string_view property);

}  // namespace osvs
