// Readable text of a regression record and of a replay outcome, for `osvs replay` and test logs:
// the inputs as hex and decimal, the schedules as merge trees, the evidence as observed against
// reference with the ULP error and its bound, and the verdict against the expectation.
#pragma once

#include <string>
#include <vector>

#include "osvs/replay/regression.h"
#include "osvs/replay/replay.h"

namespace osvs {

/// The record: property, configuration, inputs, expectation, provenance, evidence when found.
std::string format_record(const RegressionRecord& r);

/// A table of evidence: what, observed, reference, ULP error, bound.
std::string format_evidence(const std::vector<Evidence>& evidence);

/// The outcome: the file, the record (when read), this replay's verdict and status.
std::string format_outcome(const ReplayOutcome& o);

/// One line: counts by status.
std::string format_summary(const ReplaySummary& s);

}  // namespace osvs
