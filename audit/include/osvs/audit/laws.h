// The verdict of every law property (properties/registry.h) on one configuration, on cases built
// deterministically from the configuration's own rows and the states the executor produces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/audit/plan.h"
#include "osvs/kernels/executor.h"

namespace osvs::audit {

struct LawResult {
  std::string property;
  bool exact = false;    ///< bitwise law (else within a derived bound)
  bool claimed = false;  ///< the configuration claims the law (PropertyInfo::claimed)
  bool applies = true;   ///< false when the law is not about this kernel (3-pass has no combine)
  bool holds = true;
  bool error = false;  ///< the check threw: the case could not be judged
  std::string explanation;

  /// A failure of a claimed law, or a check that could not run: fails the release.
  bool fails_release() const { return applies && (error || (!holds && claimed)); }
  /// A failure of a law the configuration does not claim: a documented defect.
  bool known_defect() const { return applies && !error && !holds && !claimed; }
};

/// Runs every registered property on cases made from `rows` (one or two rows of the
/// configuration's length, finite) for the configuration's kernel, combine and block.
std::vector<LawResult> audit_laws(const Config& config, const std::vector<std::vector<float>>& rows,
                                  Executor& executor, std::uint64_t seed);

}  // namespace osvs::audit
