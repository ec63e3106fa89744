// Runs one attention law with RapidCheck: a fixed seed from RC_PARAMS (set by main), the law's
// share of max_success, vacuous cases counted (a law more than half of whose cases are vacuous
// fails: it was hardly checked), a law that cannot run on this executor skipped with the reason,
// the first counterexample printed the moment it is found, shrinking bounded in steps and seconds.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <chrono>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>

#include "osvs/properties/verdict.h"

namespace osvs::test {

struct AttentionLawLimits {
  int percent_of_max_success = 100;  ///< cases = RC_PARAMS' max_success (100) x percent / 100
  int max_shrink_steps = 300;
  double max_shrink_seconds = 20;
};

namespace detail {

struct ShrinkStop {};
struct NotRunStop {};

class BoundedShrinking final : public rc::detail::TestListener {
 public:
  BoundedShrinking(const AttentionLawLimits& limits, const bool& failed, const bool& not_run)
      : limits_(limits), failed_(failed), not_run_(not_run) {}
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {
    if (not_run_) throw NotRunStop{};
    if (failed_ && steps_ == 0) start_ = std::chrono::steady_clock::now();
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (++steps_ >= limits_.max_shrink_steps || seconds > limits_.max_shrink_seconds)
      throw ShrinkStop{};
  }
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}

 private:
  const AttentionLawLimits& limits_;
  const bool& failed_;
  const bool& not_run_;
  int steps_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace detail

/// Checks `law` on cases of `gen`; reports through GoogleTest.
template <class Case>
void run_attention_law(const std::string& name, rc::Gen<Case> gen,
                       std::function<Verdict(const Case&)> law, AttentionLawLimits limits = {}) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(1, params.maxSuccess * limits.percent_of_max_success / 100);
  int cases = 0, vacuous = 0;
  Evidence tightest{"worst error / bound", 0, 0, 0, 0};  // over every passing case
  bool failed = false, not_run = false;
  std::string not_run_reason, smallest;
  const auto property = [&] {
    const Case c = *gen;
    const Verdict v = law(c);
    if (!failed) {
      ++cases;
      if (v.status == VerdictStatus::NotRun) {
        not_run = true;
        not_run_reason = v.explanation;
        return;
      }
      RC_CLASSIFY(v.status == VerdictStatus::Vacuous, "vacuous: outside the law's domain");
      if (v.status == VerdictStatus::Vacuous) ++vacuous;
    }
    for (const Evidence& e : v.evidence)
      if (e.what == tightest.what && e.ulp_error > tightest.ulp_error) tightest = e;
    if (!v.fails()) return;
    if (!failed)
      std::cout << "[ osvs     ] " << name << ": first counterexample: " << v.explanation
                << std::endl;
    failed = true;
    smallest = v.explanation;
    RC_FAIL(v.explanation);
  };
  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;
  detail::BoundedShrinking listener(limits, failed, not_run);
  std::ostringstream report;
  try {
    const auto result = rc::detail::checkTestable(property, metadata, params, listener);
    rc::detail::printResultMessage(result, report);
  } catch (const detail::NotRunStop&) {
  } catch (const detail::ShrinkStop&) {
    report << "shrinking stopped at its limit (" << limits.max_shrink_steps << " steps or "
           << limits.max_shrink_seconds << " s)";
  }
  if (not_run) GTEST_SKIP() << name << " not run: " << not_run_reason;
  std::cout << "[ osvs     ] " << name << ": " << cases << " cases, " << vacuous << " vacuous";
  if (tightest.ulp_error > 0)
    std::cout << ", tightness " << tightest.ulp_error << " (error " << tightest.observed
              << " of bound " << tightest.bound << ")";
  std::cout << "\n";
  EXPECT_FALSE(failed) << name << " fails; smallest counterexample found: " << smallest << "\n"
                       << report.str();
  EXPECT_LE(2 * vacuous, cases) << name << ": most cases were vacuous, the law was hardly checked";
}

}  // namespace osvs::test
