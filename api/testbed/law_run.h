// One law of any kind (osvs/api/kind.h) on one kernel under RapidCheck: cases generated from the
// kernel's declaration (kind_cases.h), the first counterexample reported the moment it is found,
// shrinking within a time budget (RapidCheck's, then the kind's structural reductions), the
// smallest failing case and its regression record. The testbed's GoogleTest half
// (kind_tests.h), the mutant gates and the Python bindings all drive it.
#pragma once

#include <rapidcheck.h>

#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kind_cases.h"
#include "osvs/api/regression.h"
#include "osvs/properties/verdict.h"
#include "rc_check.h"

namespace osvs::testbed {

using LawClock = std::chrono::steady_clock;

/// A distinct failure of a law after its first: its class (Verdict::failure_kind), its own
/// smallest case and verdict.
template <class Case>
struct LawFinding {
  std::string kind;
  Case smallest;
  Verdict verdict;
  int shrink_steps = 0;
  bool budget_spent = false;
};

template <class Case>
struct LawRun {
  int judged = 0;      ///< cases on which the law held or failed
  int not_judged = 0;  ///< cases the law could not judge (outside its domain, not run)
  std::string not_judged_reason;
  std::optional<Case> smallest;  ///< the smallest failing case, when the law failed
  Verdict smallest_verdict;
  int shrink_steps = 0;       ///< smaller failing cases found after the first
  bool budget_spent = false;  ///< shrinking stopped at its budget
  /// Why the property did not hold, "" when it did: the law's failure, or an exception the
  /// property threw (a case the runner refused, no device), which leaves no smallest case.
  std::string property_failure;
  /// When the first failing case was found (the shrinking budget counts from it).
  std::optional<LawClock::time_point> first_failure;
  /// The shape classes of the judged cases (the kind's shape_class(c), where it defines one:
  /// what a case is made of, without its lengths and values).
  std::set<std::string> shape_classes;
  /// The other distinct failures (classes other than the smallest case's), each shrunk on its
  /// own (run_law's max_findings).
  std::vector<LawFinding<Case>> other_findings;
  /// The property failed without a failing case: it threw.
  bool errored() const { return !failed() && !property_failure.empty(); }
  bool failed() const { return smallest.has_value(); }
  /// Most cases were outside the law's domain: the generator misses it.
  bool mostly_not_judged() const { return not_judged > judged; }
  /// When shrinking must end.
  LawClock::time_point deadline(double shrink_seconds) const {
    return *first_failure + std::chrono::duration_cast<LawClock::duration>(
                                std::chrono::duration<double>(shrink_seconds));
  }
};

/// Counts a judged case, and its shape class where the kind defines shape_class (kind.h).
template <class Case>
void count_judged(LawRun<Case>& run, const Case& c) {
  ++run.judged;
  if constexpr (requires { shape_class(c); }) run.shape_classes.insert(shape_class(c));
}

/// `s` with a shrink tree that offers no more candidates once `expired()` holds. RapidCheck tries
/// the candidates of the smallest failing case one by one, and building one costs as much as the
/// case (a row of 65537 elements is copied for each of its elements' shrinks): a property that
/// merely passes every candidate once its budget is spent still leaves RapidCheck building them
/// all (reported: 600 s for 2 x 65537 against a 20 s budget). Cutting the tree itself ends the
/// search at the next candidate.
template <class T, class Expired>
rc::Shrinkable<T> bounded_shrinkable(rc::Shrinkable<T> s, const Expired& expired) {
  return rc::shrinkable::mapShrinks(std::move(s), [expired](rc::Seq<rc::Shrinkable<T>>&& shrinks) {
    return rc::seq::map(
        rc::seq::takeWhile(std::move(shrinks),
                           [expired](const rc::Shrinkable<T>&) { return !expired(); }),
        [expired](rc::Shrinkable<T>&& c) { return bounded_shrinkable(std::move(c), expired); });
  });
}

/// The generator `g` whose every value has the bounded shrink tree of bounded_shrinkable.
template <class T, class Expired>
rc::Gen<T> bounded_shrinks(rc::Gen<T> g, Expired expired) {
  return rc::Gen<T>([g = std::move(g), expired](const rc::Random& random, int size) {
    return bounded_shrinkable(g(random, size), expired);
  });
}

/// Runs the property "judge every generated case" into `run`: `judge` gives a case's verdict;
/// `on_first` hears the first counterexample; a single-case law judges its first case only;
/// past `shrink_seconds` after the first failure the cases' shrink trees offer no more candidates
/// (bounded_shrinks) and any candidate already built passes unjudged, so RapidCheck's shrinking
/// ends at once with the smallest failing case found so far.
template <class Case, class Judge>
void run_law_property(LawRun<Case>& run, const std::string& description, rc::Gen<Case> cases,
                      const Judge& judge, bool single_case, double shrink_seconds,
                      const std::function<void(const Verdict&, const Case&)>& on_first,
                      const RcParams& params) {
  const auto expired = [&run, shrink_seconds] {
    if (!run.first_failure ||
        std::chrono::duration<double>(LawClock::now() - *run.first_failure).count() <=
            shrink_seconds)
      return false;
    run.budget_spent = true;
    return true;
  };
  const rc::Gen<Case> bounded = bounded_shrinks(std::move(cases), expired);
  run.property_failure = check_property(
      description,
      [&] {
        if (expired()) return;
        if (single_case && run.judged + run.not_judged > 0) return;  // its one case ran
        const Case c = *bounded;
        const Verdict v = judge(c);
        if (!v.judged()) {
          if (!run.first_failure) {
            ++run.not_judged;
            run.not_judged_reason = v.explanation;
          }
          RC_TAG("not judged");
          return;
        }
        if (!run.first_failure) count_judged(run, c);
        RC_TAG("judged");
        if (v.holds()) return;
        if (!run.first_failure) {
          run.first_failure = LawClock::now();
          on_first(v, c);
        } else {
          ++run.shrink_steps;
        }
        run.smallest = c;
        run.smallest_verdict = v;
        RC_FAIL(v.explanation);
      },
      params);
}

/// Judges the cases a kernel's declaration makes every run judge (declared_cases, e.g. its
/// layouts' edges) into `run`, in order; the first that fails is the run's first counterexample,
/// and one that throws leaves the run errored (property_failure) as a throwing property does.
template <class Case, class Judge>
void judge_declared_cases(LawRun<Case>& run, const std::vector<Case>& cases, const Judge& judge,
                          const std::function<void(const Verdict&, const Case&)>& on_first) {
  for (const Case& c : cases) {
    Verdict v;
    try {
      v = judge(c);
    } catch (const std::exception& e) {  // as RapidCheck reports a property that throws
      run.property_failure = std::string("a declared case threw: ") + e.what();
      return;
    }
    if (!v.judged()) {
      ++run.not_judged;
      run.not_judged_reason = v.explanation;
      continue;
    }
    count_judged(run, c);
    if (v.holds()) continue;
    run.first_failure = LawClock::now();
    on_first(v, c);
    run.smallest = c;
    run.smallest_verdict = v;
    return;
  }
}

/// One search of run_law: the declared cases (judge_declared_cases), then RapidCheck over
/// law_cases(k, law) with the failures of the classes in
/// `known` set aside (without_known), then, while the law still fails and the budget lasts, the
/// kind's reductions of the smallest case (reduce_case, which may read k's declaration).
template <class K>
LawRun<typename K::Case> search_law(
    const typename K::Law& law, const typename K::Kernel& k, double shrink_seconds,
    const std::function<void(const Verdict&, const typename K::Case&)>& on_first,
    const RcParams& params, const std::set<std::string>& known) {
  using Case = typename K::Case;
  LawRun<Case> run;
  const bool single = K::single_case(law);
  const auto judge = [&](const Case& c) { return without_known(K::check(law, k, c), known); };
  if (!single) judge_declared_cases(run, declared_cases(k, law), judge, on_first);
  if (!run.failed() && run.property_failure.empty())
    run_law_property(run, k.name() + ": " + law.name, law_cases(k, law), judge, single,
                     shrink_seconds, on_first, params);
  if (!run.failed() || single) return run;
  const LawClock::time_point deadline = run.deadline(shrink_seconds);
  const auto out_of_time = [&] {
    if (LawClock::now() <= deadline) return false;
    run.budget_spent = true;
    return true;
  };
  // run.smallest is assigned in place, so `smallest` below always reads the current one. The
  // reductions run again, up to kReductionPasses times, while a pass made the case smaller: a
  // dimension that had to stay may go once another one shrank (a head_dim component once a key
  // is gone). The cap bounds a kind whose value simplifications are not a strict order.
  const Reduction<Case> reduction{[&](const Case& candidate) {
                                    if (out_of_time()) return false;
                                    const Verdict v = judge(candidate);
                                    if (!v.fails()) return false;
                                    run.smallest = candidate;
                                    run.smallest_verdict = v;
                                    ++run.shrink_steps;
                                    return true;
                                  },
                                  out_of_time};
  constexpr int kReductionPasses = 4;
  for (int pass = 0, before = -1;
       pass < kReductionPasses && run.shrink_steps != before && !out_of_time(); ++pass) {
    before = run.shrink_steps;
    reduce_case(k, *run.smallest, reduction);
  }
  return run;
}

/// Runs `law` on `k`: the first failure found, reported to `on_first` the moment it is found and
/// shrunk (search_law); then, up to `max_findings` in all, a search for each further class of
/// failure, the classes found so far set aside, each shrunk within its own budget, as Hypothesis
/// reports several distinct bugs. max_findings = 1 stops at the first (--osvs-first-failure).
template <class K>
LawRun<typename K::Case> run_law(
    const typename K::Law& law, const typename K::Kernel& k, double shrink_seconds,
    const std::function<void(const Verdict&, const typename K::Case&)>& on_first,
    const RcParams& params = std::nullopt, int max_findings = 1) {
  std::set<std::string> known;
  LawRun<typename K::Case> run = search_law<K>(law, k, shrink_seconds, on_first, params, known);
  // A law that does not class its failures (no Verdict::findings) has one class only; a declared
  // known defect has to show once (the search for further classes is for failures nobody knows).
  if (!run.failed() || K::single_case(law) || run.smallest_verdict.findings.empty() ||
      k.known_defects().count(law.name) > 0)
    return run;
  known.insert(run.smallest_verdict.failure_kind());
  while (static_cast<int>(run.other_findings.size()) + 1 < max_findings) {
    const auto next = search_law<K>(
        law, k, shrink_seconds, [](const Verdict&, const typename K::Case&) {}, params, known);
    if (!next.failed() || !known.insert(next.smallest_verdict.failure_kind()).second) break;
    run.other_findings.push_back({next.smallest_verdict.failure_kind(), *next.smallest,
                                  next.smallest_verdict, next.shrink_steps, next.budget_spent});
  }
  return run;
}

/// The regression record of a failing case and its verdict: what replaying must show (the law
/// holding once the kernel is fixed, or still failing for a declared known defect); `found_by`
/// goes into the provenance line.
template <class K>
Regression<K> regression_of(const typename K::Kernel& k, const typename K::Law& law,
                            const typename K::Case& smallest, const Verdict& verdict,
                            const std::string& found_by) {
  const auto defect = k.known_defects().find(law.name);
  const bool expect_failure = defect != k.known_defects().end();
  Regression<K> r;
  r.kernel = k.name();
  r.law = law.name;
  r.expect_holds = !expect_failure;
  r.note = expect_failure ? "known defect: " + defect->second
                          : "found failing: replay must show the law holding once the kernel "
                            "is fixed";
  r.found = regression_provenance(found_by);
  r.explanation = verdict.explanation;
  r.input = smallest;
  return r;
}

/// The regression record of a failed run's (first) smallest case.
template <class K>
Regression<K> regression_of(const typename K::Kernel& k, const typename K::Law& law,
                            const LawRun<typename K::Case>& run, const std::string& found_by) {
  return regression_of<K>(k, law, *run.smallest, run.smallest_verdict, found_by);
}

}  // namespace osvs::testbed
