// The attention kernels' section of audit.md (attention_kernels_audit.h).
#pragma once

#include <string>

#include "osvs/audit/attention_kernels_audit.h"

namespace osvs::audit {

/// The section's text (without its heading): what was measured and how, a table of every
/// kernel, then per kernel its worst cases and its laws. Numbers with 9 significant digits, the
/// worst elements' values as hex floats; no wall-clock value (those are in the Timing section).
std::string attention_kernels_markdown(const AttentionKernelsAudit& a);

/// One kernel's measure in a line (the plugin audit's report): cases, elements, the quantiles of
/// o's and the lse's ulps and of the tightness, the elements outside the contract, the worst.
std::string attention_kernel_line(const AttentionKernelAccuracy& k);

}  // namespace osvs::audit
