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
  /// false when the law was not judged here: it is not about this kernel (3-pass has no combine),
  /// the audit has no case for it, or the check said "not run" (the law cannot run on this
  /// executor, or the case lies outside its domain); `explanation` says which.
  bool applies = true;
  bool holds = true;   ///< the law was judged and holds (false when it was not run)
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
