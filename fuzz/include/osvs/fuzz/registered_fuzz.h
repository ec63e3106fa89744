// One fuzz input over the registry: the bytes choose a kind (osvs/api/kind.h), one of its
// registered host kernels and one of the laws that run on it (not excluded, skipped or of a
// single fixed case), then decode that kind's case (kind_case_decoder.h); the law's check judges
// it. A failing law that the kernel does not declare a known defect is a finding, reported with
// the regression file that replays it.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "osvs/properties/verdict.h"

namespace osvs::fuzz {

struct RegisteredRun {
  bool ran = false;  ///< a kernel and a law were chosen and the law judged the case
  std::string kind, kernel, law, case_summary;
  Verdict verdict;
  bool finding = false;       ///< the law failed and is not a declared known defect
  bool known_defect = false;  ///< the law failed and is one
  std::string regression;     ///< a finding's regression file (JSON), replayable by the testbed
};

/// Judges one input; never throws for a kernel's fault (the runner's KernelFailure fails the law).
RegisteredRun fuzz_registered(std::span<const std::uint8_t> bytes);

/// A finding's report: kind, kernel, law, case, why, and the regression file's text.
std::string format_run(const RegisteredRun& r);

}  // namespace osvs::fuzz
