// A one-paragraph summary of a Case for progress output: the configuration, the shapes, the row
// classes and the first few values, in hex. Short even for rows of 2^17 elements (the full case
// goes to the regression file).
#pragma once

#include <string>

#include "osvs/properties/case.h"

namespace osvs::test {

/// At most this many values of a row or states are shown.
inline constexpr std::size_t kSummaryValues = 8;

std::string summarize_case(const Case& c);

}  // namespace osvs::test
