// Pieces shared by the audit's JSON documents (audit.json, worst_cases.json, summary.json).
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "osvs/audit/kernel_audit.h"
#include "osvs/audit/report.h"

namespace osvs::audit {

using json = nlohmann::ordered_json;

/// JSON has no infinity: an infinite ratio (a non-zero error where the bound is 0) is a string
/// ("inf", "-inf", "nan"); number_of reads either form back (std::runtime_error otherwise).
json number(double v);
double number_of(const json& j);

/// commit, date, executor, device, nvcc.
json provenance(const Provenance& p);

/// An element with its row, floats as hex.
json element(const WorstElement& w, std::int64_t row);

/// Every wall-clock number of a run: sweep, search, total, throughput.
json timing(const AuditReport& r);

/// The planned configurations a time budget left out, each as describe() names it.
json not_run_list(const AuditReport& r);

/// The attention section's laws: per law its cases, vacuous cases, worst tightness, violations,
/// first violation and every case's tightness in generation order (the plot and the shard merge
/// read them).
json attention_laws_json(const AttentionAudit& a);

/// One law's outcome (audit_law.h) and back: the plugin audit's records and the attention
/// section's.
json law_outcome_json(const LawOutcome& l);
LawOutcome law_outcome_of(const json& j);

/// rounds, and seconds when the search was limited by wall time.
json search_budget(const SearchBudget& b);

}  // namespace osvs::audit
