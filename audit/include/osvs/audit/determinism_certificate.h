// The determinism certificate: per audited kernel, every invariance of its kind — a law across
// calls, which asks other calls computing the same problem (the batch reversed or a sequence
// alone, other pages, other split parameters, the queries in chunks, a decode step, a second
// launch) to agree — with what it asks of this kernel (the same bits, or every call within the
// contract where the declaration relaxes it), and what the audit found: holds over how many
// cases and shape classes, fails with its minimal case, a declared known defect shown or
// missing, or not judged and why. `certificate.json` beside the audit's report is what a serving
// engine's CI gates on: "passes" is false as soon as one invariance fails or a declared known
// defect no longer shows (audit/README.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "osvs/audit/attention_kernels_audit.h"
#include "osvs/audit/kernel_audit.h"

namespace osvs::audit {

/// The invariances of a, in its laws' order (LawOutcome::asks not empty).
std::vector<LawOutcome> invariances_of(const KernelAudit& a);

/// No invariance of a fails, and no declared known defect among them is missing.
bool certificate_passes(const KernelAudit& a);

/// certificate.json: {"osvs_determinism_certificate": 1, "provenance", "passes", "kernels":
/// [{"kind", "kernel", "declaration", "status", "passes", "invariances": [LawOutcome's fields:
/// "law", "status", "detail", "asks", "cases", "vacuous", "shape_classes", "minimal_case"]}]},
/// every kernel with an
/// invariance; a kernel the audit could not run has status "unavailable" or "failed" and fails.
std::string certificate_json(const std::vector<KernelAudit>& audits,
                             const nlohmann::ordered_json& provenance);

/// The attention section's kernels as the certificate reads them: kind "attention", status
/// "unavailable" for a kernel not run, "failed" for one whose section could not finish.
std::vector<KernelAudit> certified_kernels(const AttentionKernelsAudit& a);

/// The certificate as a section of the audit's markdown ("" when no kernel has an invariance).
std::string certificate_markdown(const std::vector<KernelAudit>& audits);

}  // namespace osvs::audit
