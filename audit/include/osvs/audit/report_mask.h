// Masking the wall-clock numbers of an audit's reports, so that two runs with the same options on
// the same commit can be compared byte for byte: everything else in them must be identical.
#pragma once

#include <optional>
#include <string>

namespace osvs::audit {

/// A JSON report with the value of every key named date, seconds, timing or performance (at any
/// depth) replaced by "<masked>"; throws std::runtime_error when `text` is not JSON.
std::string mask_timing_json(const std::string& text);

/// audit.md with its "- date:" line and the bodies of its "## Timing" and "## Performance"
/// sections replaced by "<masked>".
std::string mask_timing_markdown(const std::string& text);

/// The first line where `a` and `b` differ ("line N: <a> | <b>"), or nullopt when they are equal.
std::optional<std::string> first_difference(const std::string& a, const std::string& b);

}  // namespace osvs::audit
