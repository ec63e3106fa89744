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

  bool holds() const { return status == VerdictStatus::Holds; }
  bool fails() const { return status == VerdictStatus::Fails; }
  /// The law was checked on the case: it holds or it fails (neither vacuous nor not run).
  bool judged() const { return holds() || fails(); }

  static Verdict pass() { return Verdict{}; }
  static Verdict fail(std::string why, std::vector<Evidence> ev = {}) {
    return Verdict{VerdictStatus::Fails, std::move(why), std::move(ev)};
  }
  /// The case lies outside the law's domain; `why` says how.
  static Verdict vacuous(std::string why) {
    return Verdict{VerdictStatus::Vacuous, std::move(why), {}};
  }
  /// The law cannot be judged with this executor; `why` says what is missing.
  static Verdict not_run(std::string why) {
    return Verdict{VerdictStatus::NotRun, std::move(why), {}};
  }
};

}  // namespace osvs
