#include "osvs/fuzz/judge.h"
#include "osvs/kernels/enum_names.h"

#include <exception>

#include "osvs/properties/check_case.h"
#include "osvs/replay/case_io.h"
#include "osvs/replay/print.h"

namespace osvs::fuzz {

Judgement judge(const PropertyInfo& p, const Case& c, Executor& ex) {
  Judgement j;
  j.claimed = p.claimed(c);
  try {
    j.verdict = check_case(p, c, ex);
  } catch (const std::exception& e) {
    j.threw = true;
    j.verdict = Verdict::fail(std::string("the property threw: ") + e.what());
  }
  if (j.verdict.holds())
    j.outcome = Outcome::Holds;
  else if (!j.verdict.judged())
    j.outcome = Outcome::NotRun;
  else
    j.outcome = j.claimed || j.threw ? Outcome::Finding : Outcome::KnownDefect;
  return j;
}

namespace {
constexpr EnumName<Outcome> kOutcomeNames[] = {{Outcome::Holds, "holds"},
                                               {Outcome::NotRun, "not run"},
                                               {Outcome::KnownDefect, "known defect"},
                                               {Outcome::Finding, "finding"}};
}  // namespace

const char* to_string(Outcome o) {
  return name_in(kOutcomeNames, o);
}

std::string format_judgement(const PropertyInfo& p, const Case& c, const Judgement& j) {
  std::string s = "property " + p.name + " (" + p.law + ")\n";
  s += std::string("configuration: kernel ") + osvs::to_string(c.kernel) + ", combine " +
       osvs::to_string(c.combine) + ", block " + std::to_string(c.block) +
       (j.claimed ? ", law claimed\n" : ", law not claimed\n");
  s += std::string("outcome: ") + to_string(j.outcome) + "\n";
  if (!j.verdict.judged())
    s += std::string("verdict status: ") + to_string(j.verdict.status) + "\n";
  if (!j.verdict.explanation.empty()) s += "verdict: " + j.verdict.explanation + "\n";
  if (!j.verdict.evidence.empty()) s += format_evidence(j.verdict.evidence);
  s += "case: " + serialize_case(c) + "\n";
  return s;
}

}  // namespace osvs::fuzz
