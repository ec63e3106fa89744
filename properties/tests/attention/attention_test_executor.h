// The attention executor the property tests run on, chosen once by `--executor=cpu|cuda`.
#pragma once

#include <string>

#include "osvs/kernels/attention/attention_executor.h"

namespace osvs::test {

void select_attention_executor(const std::string& name);

/// The selected executor, or nullptr (then attention_unavailable_reason() says why).
AttentionExecutor* attention_executor();
const std::string& attention_unavailable_reason();

/// The CPU model, always available (the second party of the agreement law).
AttentionExecutor& cpu_attention_executor();

}  // namespace osvs::test
