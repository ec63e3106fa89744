// Text form of cases and regression records: JSON with every float as a hex float, read back bit
// for bit. Readers validate every field and throw RegressionFormatError naming the file and field.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "osvs/properties/case.h"
#include "osvs/replay/format_error.h"
#include "osvs/replay/regression.h"

namespace osvs {

/// The schema version written in every regression file; a reader refuses any other.
inline constexpr int kRegressionSchemaVersion = 1;

/// A Case as a JSON document (all fields, hex floats).
std::string serialize_case(const Case& c);

/// The Case in `text`; `file` only names the source in error messages.
Case parse_case(std::string_view text, const std::string& file = "");

/// A regression record as an indented JSON document, ending in a newline.
std::string serialize_regression(const RegressionRecord& r);

/// The record in `text`; throws RegressionFormatError (with `file`) for malformed, truncated or
/// wrong-schema text.
RegressionRecord parse_regression(std::string_view text, const std::string& file = "");

/// Reads and parses the file at `path`; an unreadable file is a RegressionFormatError too.
RegressionRecord read_regression(const std::filesystem::path& path);

/// The canonical text of what identifies a case: property name and input, keys sorted, no spaces.
std::string canonical_case_text(const std::string& property, const Case& c);

}  // namespace osvs
