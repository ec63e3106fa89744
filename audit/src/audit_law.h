// One law of any kind on one kernel, as the audits report it (LawOutcome, kernel_audit.h): the
// plugin audit's laws (kernel_audit.cpp) and the attention section's (attention_kernels_audit.cpp)
// go through this one function.
#pragma once

#include <rapidcheck.h>

#include <string>

#include "law_run.h"
#include "osvs/audit/kernel_audit.h"
#include "osvs/kernels/stable_hash.h"

namespace osvs {

/// One law of kind K on k: the law run of the testbed (api/testbed/law_run.h) on o.law_cases
/// generated cases from a seed derived from the audit's, the kernel's and the law's names. A law
/// of one call reports its first counterexample unshrunk; a failing invariance is shrunk for
/// o.invariance_shrink_seconds, since its minimal case is what the determinism certificate shows.
template <class K>
LawOutcome audit_law(const typename K::Kernel& k, const typename K::Law& law,
                     const KernelAuditOptions& o) {
  const std::string asks = !law.bitwise ? "" : law.bitwise(k) ? "bitwise" : "contract";
  const auto outcome = [&](std::string status, std::string detail) {
    LawOutcome out{.law = law.name, .status = std::move(status), .detail = std::move(detail)};
    out.asks = asks;
    return out;
  };
  if (auto it = k.skips().find(law.name); it != k.skips().end())
    return outcome("skipped", it->second);
  if (const std::string why = K::excluded(law, k); !why.empty()) return outcome("not judged", why);
  const auto defect = k.known_defects().find(law.name);
  const bool expect_failure = defect != k.known_defects().end();
  const bool shrink = !asks.empty() && o.invariance_shrink_seconds > 0;
  rc::detail::TestParams params;
  params.seed = fnv1a64(std::to_string(o.seed) + "/" + k.name() + "/" + law.name);
  params.maxSuccess = o.law_cases;
  params.disableShrinking = !shrink;
  const auto run = testbed::run_law<K>(
      law, k, shrink ? o.invariance_shrink_seconds : 0,
      [](const Verdict&, const typename K::Case&) {}, params);
  LawOutcome out = outcome("", "");
  out.cases = run.judged;
  out.vacuous = run.not_judged;
  out.shape_classes = static_cast<int>(run.shape_classes.size());
  if (run.failed()) {
    const std::string failure = run.smallest_verdict.explanation;
    out.status = expect_failure ? "known defect shown" : "fails";
    out.detail = expect_failure ? defect->second + ": " + failure : failure;
    out.minimal_case = K::summary(*run.smallest);
  } else if (run.errored()) {
    out.status = "fails";
    out.detail = "the law's run threw: " + run.property_failure;
  } else if (run.judged == 0) {
    out.status = "not judged";
    out.detail = run.not_judged_reason;
  } else {
    out.status = expect_failure ? "known defect missing" : "holds";
    out.detail = std::to_string(run.judged) + " cases" +
                 (expect_failure ? "; declared: " + defect->second : "");
  }
  return out;
}

}  // namespace osvs
