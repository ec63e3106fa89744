// The attention kernels' section (attention_kernels_audit.h) as JSON: the whole of it, lossless
// (audit.json and the shard file: doubles with 17 significant digits, "inf" and "nan" as
// strings), and the few numbers a reader needs (summary.json).
#pragma once

#include <nlohmann/json.hpp>

#include "osvs/audit/attention_kernels_audit.h"

namespace osvs::audit {

nlohmann::ordered_json attention_kernels_json(const AttentionKernelsAudit& a);

/// attention_kernels_json read back; throws nlohmann::json::exception or std::invalid_argument
/// on a malformed document.
AttentionKernelsAudit attention_kernels_of(const nlohmann::ordered_json& j);

/// Per kernel: its verdict, counts, the quantiles and its worst case.
nlohmann::ordered_json attention_kernels_summary(const AttentionKernelsAudit& a);

}  // namespace osvs::audit
