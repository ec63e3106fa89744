// The executor the property tests run on, chosen once by `--executor=cpu|cuda` in main.
#pragma once

#include <string>

#include "osvs/kernels/executor.h"

namespace osvs::test {

/// Selects the executor by name; remembers why it is unavailable when it is.
void select_executor(const std::string& name);

/// The selected executor, or nullptr when it is unavailable.
Executor* executor();

/// Why the selected executor is unavailable ("" when it is available).
const std::string& unavailable_reason();

}  // namespace osvs::test
