// Verdict: what a property says about one case. `status` is the answer, one of four:
//
// - Holds: the law was checked on the case and holds;
// - Fails: the law was checked and fails;
// - Vacuous: the case lies outside the law's domain (a row with no finite element for an accuracy
//   law, a shift that is not exact on the row): nothing was checked;
// - NotRun: the law cannot be judged with this executor (determinism and agreement with the CPU
//   model need a second party; on the CPU model itself they would compare the model with itself).
//
// Only Holds is a pass. A vacuous or not-run verdict is never counted as one: the RapidCheck
// driver counts vacuous cases and fails a law whose cases are mostly vacuous, and skips a law that
// cannot run; the fuzzer, the audit, mutation testing and replay report them as not run.
//
// The rest is the evidence a regression file records and `osvs replay` prints: observed values,
// reference values, ULP errors and the bound they were held to.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "osvs/kernels/enum_names.h"

namespace osvs {

struct Evidence {
  std::string what;      ///< e.g. "y[3]", "d", "a(+)b"
  double observed = 0;   ///< as a double (exact for float data)
  double reference = 0;  ///< oracle value or the other side of an equality
  double ulp_error = 0;  ///< distance in ulps (0 for bitwise laws that hold)
  double bound = 0;      ///< allowed distance (0 for bitwise laws)
};

enum class VerdictStatus { Holds, Fails, Vacuous, NotRun };

/// One distinct failure a check saw on a case: its class (which check and which class of input
/// failed how, e.g. "+inf lse: not NaN") and its explanation.
struct Finding {
  std::string kind;
  std::string explanation;
};

inline constexpr EnumName<VerdictStatus> kVerdictStatusNames[] = {
    {VerdictStatus::Holds, "holds"},
    {VerdictStatus::Fails, "fails"},
    {VerdictStatus::Vacuous, "vacuous"},
    {VerdictStatus::NotRun, "not run"}};

/// "holds", "fails", "vacuous", "not run".
constexpr const char* to_string(VerdictStatus s) {
  return name_in(kVerdictStatusNames, s);
}

struct Verdict {
  VerdictStatus status = VerdictStatus::Holds;
  std::string explanation;         ///< one readable paragraph; hex floats for inputs
  std::vector<Evidence> evidence;  ///< the worst few elements, not all of them
  /// A failing verdict of a law that classifies its failures: every distinct class it saw on the
  /// case, in the order found (explanation is the first's). Empty: one unclassified failure.
  std::vector<Finding> findings;

  bool holds() const { return status == VerdictStatus::Holds; }
  bool fails() const { return status == VerdictStatus::Fails; }
  /// The law was checked on the case: it holds or it fails (neither vacuous nor not run).
  bool judged() const { return holds() || fails(); }

  static Verdict pass() { return Verdict{}; }
  static Verdict fail(std::string why, std::vector<Evidence> ev = {},
                      std::vector<Finding> findings = {}) {
    return Verdict{VerdictStatus::Fails, std::move(why), std::move(ev), std::move(findings)};
  }
  /// The class of the failure this verdict reports ("" for an unclassified one).
  std::string failure_kind() const { return findings.empty() ? "" : findings.front().kind; }
  /// The case lies outside the law's domain; `why` says how.
  static Verdict vacuous(std::string why) {
    return Verdict{VerdictStatus::Vacuous, std::move(why), {}, {}};
  }
  /// The law cannot be judged with this executor; `why` says what is missing.
  static Verdict not_run(std::string why) {
    return Verdict{VerdictStatus::NotRun, std::move(why), {}, {}};
  }
};

/// Adds `f` to `findings` unless a finding of its class is there (the first of a class is kept).
inline void add_finding(std::vector<Finding>& findings, Finding f) {
  for (const Finding& seen : findings)
    if (seen.kind == f.kind) return;
  findings.push_back(std::move(f));
}

/// v with the failures of the classes in `known` set aside: a failing v whose first finding not
/// in `known` is reported instead (the others after it), or a holding verdict when every class
/// it saw is known (an unclassified failure has class ""). Other verdicts are unchanged.
template <class Known>
Verdict without_known(const Verdict& v, const Known& known) {
  if (!v.fails()) return v;
  const auto is_known = [&](const std::string& kind) { return known.count(kind) > 0; };
  if (v.findings.empty()) return is_known("") ? Verdict::pass() : v;
  for (std::size_t i = 0; i < v.findings.size(); ++i)
    if (!is_known(v.findings[i].kind)) {
      Verdict out = v;
      out.explanation = v.findings[i].explanation;
      out.findings.assign(v.findings.begin() + static_cast<std::ptrdiff_t>(i), v.findings.end());
      return out;
    }
  return Verdict::pass();
}

}  // namespace osvs
