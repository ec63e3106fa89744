// The regression record the file tests start from: a kernel, a law and what replaying must show,
// with short stand-ins for the prose (note, provenance, explanation) that a round trip carries
// unread; each test fills in its kind's input.
#pragma once

#include <string>
#include <utility>

#include "osvs/api/regression.h"

namespace osvs::test {

/// A record of kind K of `law` on `kernel`, expecting the law to hold (or, false, to fail), its
/// note, provenance and explanation "n", "f" and "e", its input empty.
template <class K>
Regression<K> regression_record(std::string kernel, std::string law, bool expect_holds = true) {
  Regression<K> r;
  r.kernel = std::move(kernel);
  r.law = std::move(law);
  r.expect_holds = expect_holds;
  r.note = "n";
  r.found = "f";
  r.explanation = "e";
  return r;
}

}  // namespace osvs::test
