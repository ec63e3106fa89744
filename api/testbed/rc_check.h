// Running a RapidCheck property with the suite's configuration (RC_PARAMS, its messages on
// stderr) or with explicit parameters and no messages: the testbed's GoogleTest programs take the
// first, a caller that reports on its own (the Python bindings) the second.
#pragma once

#include <rapidcheck.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <string>

namespace osvs::testbed {

/// RapidCheck's parameters of one run; nullopt: the global configuration (RC_PARAMS).
using RcParams = std::optional<rc::detail::TestParams>;

/// Loads RapidCheck's global configuration now, without the "Using configuration: seed=..." line
/// it prints at its first use (a random seed without RC_PARAMS): for a program whose every run
/// passes explicit parameters (the Python bindings, the audit), where that line would name a
/// seed nothing uses.
inline void load_configuration_quietly() {
  std::ostringstream discard;
  std::streambuf* const cerr = std::cerr.rdbuf(discard.rdbuf());
  rc::detail::configuration();
  std::cerr.rdbuf(cerr);
}

/// Hears nothing: a run with explicit parameters leaves no trace in RapidCheck's global state
/// (no "to reproduce, run with RC_PARAMS=..." line at exit for a seed its caller chose).
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

/// Checks `property` (a callable as rc::check takes it): "" when it holds, else why not.
/// A failure the property reports itself is recorded by its caller; this string matters when the
/// property threw (RapidCheck counts an exception as a failure).
template <class Property>
std::string check_property(const std::string& description, Property&& property,
                           const RcParams& params) {
  if (!params)
    return rc::check(description, std::forward<Property>(property))
               ? ""
               : "the property failed (RapidCheck's message above)";
  rc::detail::TestMetadata metadata;
  metadata.id = description;
  metadata.description = description;
  QuietListener quiet;
  const auto result =
      rc::detail::checkTestable(std::forward<Property>(property), metadata, *params, quiet);
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(failure)) return failure.description;
  if (result.match(gave_up)) return "RapidCheck gave up: " + gave_up.description;
  if (result.match(error)) return "RapidCheck error: " + error.description;
  return "";
}

}  // namespace osvs::testbed
