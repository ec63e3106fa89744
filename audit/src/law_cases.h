// The cases audit_laws judges: one per property, built from a configuration's rows and from the
// chunk states the executor itself produces for them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "osvs/audit/plan.h"
#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"

namespace osvs::audit {

/// The case for property `name` (a registry name), or nullopt when the audit has no case for it.
std::optional<Case> law_case(const std::string& name, const Config& config,
                             const std::vector<std::vector<float>>& rows, Executor& executor,
                             std::uint64_t seed);

/// Whether a property is about the combine operator (the 3-pass kernel has none).
bool is_combine_law(const std::string& name);

}  // namespace osvs::audit
