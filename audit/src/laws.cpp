#include "osvs/audit/laws.h"

#include <exception>

#include "law_cases.h"
#include "osvs/properties/registry.h"

namespace osvs::audit {

std::vector<LawResult> audit_laws(const Config& config, const std::vector<std::vector<float>>& rows,
                                  Executor& executor, std::uint64_t seed) {
  std::vector<LawResult> out;
  for (const PropertyInfo& p : all_properties()) {
    LawResult r;
    r.property = p.name;
    r.exact = p.exact;
    if (!config.kut.facts().folds_with_combine && is_combine_law(p.name)) {
      r.applies = false;
      r.explanation = std::string("the ") + config.kut.facts().name +
                      " kernel folds with max and +, no combine operator";
      out.push_back(r);
      continue;
    }
    try {
      const std::optional<Case> c = law_case(p.name, config, rows, executor, seed);
      if (!c) {
        r.applies = false;
        r.explanation = "no audit case for this property";
      } else {
        r.claimed = p.claimed(*c);
        const Verdict v = p.check(*c, executor);
        if (v.judged()) {
          r.holds = v.holds();
          r.explanation = v.explanation;
        } else {  // vacuous or not run: never counted as holding
          r.applies = false;
          r.holds = false;
          r.explanation =
              std::string("not run (") +
              (v.status == VerdictStatus::Vacuous ? "the case is outside the law's domain: " : "") +
              v.explanation + ")";
        }
      }
    } catch (const std::exception& e) {
      r.error = true;
      r.holds = false;
      r.explanation = std::string("the check could not run: ") + e.what();
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace osvs::audit
