// How ctest learns that a whole test binary was skipped (no device): after the run, a binary in
// which tests ran, none passed and none failed prints kAllSkippedMarker, and osvs_add_test marks
// the ctest entry skipped on that line only. A binary with any failure never prints it, so a
// failing GPU run can never be reported as skipped.
#pragma once

namespace osvs::testing {

inline constexpr const char* kAllSkippedMarker =
    "[ osvs     ] every test of this binary was skipped";

/// Adds the listener that prints kAllSkippedMarker; call after InitGoogleTest.
void install_skip_marker();

}  // namespace osvs::testing
