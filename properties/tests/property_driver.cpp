#include "property_driver.h"

#include <optional>

#include "regression_sink.h"
#include "test_executor.h"

namespace osvs::test {

void PropertyTest::SetUp() {
  if (!executor()) GTEST_SKIP() << unavailable_reason();
}

void expect_law(const LawSpec& run, const Case& configuration) {
  const PropertyInfo* p = find_property(run.property);
  ASSERT_NE(p, nullptr) << "no property named " << run.property;
  Executor& ex = *executor();
  const bool claimed = p->claimed(configuration);
  std::optional<std::pair<Case, Verdict>> last_failure;
  const bool passed = rc::check(p->name + ": " + p->law, [&] {
    const Case c = *run.cases;
    run.classify(c);
    const Verdict v = p->check(c, ex);
    // tree_invariance reports whether the two trees' roots differ in their bits: a statistic of
    // the reduction order's visible effect, shown in RapidCheck's distribution, never asserted.
    for (const Evidence& e : v.evidence)
      if (e.what == "roots differ bitwise")
        RC_CLASSIFY(e.observed != 0, "the two trees' roots differ in bits");
    if (!v.holds) {
      last_failure.emplace(c, v);
      RC_FAIL(v.explanation);
    }
  });
  if (claimed) {
    EXPECT_TRUE(passed) << p->name << " is claimed by this configuration but fails: "
                        << (last_failure ? last_failure->second.explanation : "");
  } else {
    EXPECT_FALSE(passed) << p->name
                         << " is documented as not holding here, yet no counterexample was found";
  }
  if (!last_failure) return;
  const auto& [shrunk, verdict] = *last_failure;
  if (!claimed && run.max_shrunk_states > 0)
    EXPECT_LE(shrunk.states.size(), run.max_shrunk_states)
        << "the known defect did not shrink to a small counterexample";
  const std::string note = claimed ? "claimed law broken" : "known defect: law not claimed";
  const std::string path = save_regression(p->name, shrunk, verdict, !claimed, note, ex);
  std::cout << "[ osvs     ] " << p->name << " counterexample: " << verdict.explanation
            << (path.empty() ? "" : "\n[ osvs     ] saved " + path) << "\n";
}

}  // namespace osvs::test
