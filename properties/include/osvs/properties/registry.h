// The property registry: every property is a plain function `Verdict f(const Case&, Executor&)`,
// registered once under a stable name. RapidCheck tests, fuzz harnesses, the replay test and the
// audit look properties up here; no property is written twice.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs {

using PropertyFn = Verdict (*)(const Case&, Executor&);

struct PropertyInfo {
  std::string name;  ///< stable identifier, used in file paths: "commutativity"
  std::string law;   ///< one sentence: what must hold
  bool exact;        ///< bitwise law (true) or within a derived bound (false)
  PropertyFn check;
  /// Whether the configuration of `c` claims this law (from the operators' declared algebra);
  /// a property run on a configuration that does not claim it still runs, and a failure there
  /// is a known defect, not a surprise.
  bool (*claimed)(const Case& c);
  /// The law combines the case's states through Executor::combine_pairs_in, so it runs on states
  /// stored in bf16 / fp16 too (Case::state_format); the others take float32 states only.
  bool narrow_states = false;
};

/// All registered properties, in a stable order.
const std::vector<PropertyInfo>& all_properties();

/// The property named `name`, or nullptr.
const PropertyInfo* find_property(std::string_view name);

}  // namespace osvs
