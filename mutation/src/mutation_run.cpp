#include "osvs/mutation/mutation_run.h"

#include <chrono>
#include <stdexcept>

#include "osvs/kernels/large_index_check.h"
#include "osvs/kernels/softmax_mutants.h"
#include "osvs/properties/registry.h"
#include "osvs/replay/regression.h"

namespace osvs::mutation {
namespace {

/// Writes the shrunk case of a kill as a regression file that must keep failing on the mutant.
std::string save_counterexample(const Mutant& mutant, const LawOutcome& law, Executor& executor,
                                const RunSettings& settings) {
  if (settings.regression_root.empty() || !law.shrunk) return "";
  RegressionRecord r;
  r.property = law.property;
  r.input = *law.shrunk;
  r.verdict = law.verdict;
  r.expectation = Expectation::Violates;
  r.needs_gpu = executor.is_gpu();
  r.provenance = make_provenance(executor, "mutation");
  if (!settings.commit.empty()) r.provenance.osvs_commit = settings.commit;
  r.provenance.rc_seed = "seed=" + std::to_string(settings.budget.seed);
  r.note = "mutant " + mutant.name + ": " + mutant.bug;
  const std::filesystem::path file = write_regression(r, settings.regression_root);
  // Relative to the report's folder (the root's parent), so that a committed report is portable.
  return file.lexically_relative(settings.regression_root.parent_path()).generic_string();
}

/// The 2^31-element check: first the unmutated kernel (a control: the device must have the
/// memory and the check must pass), then the mutant in its place.
void judge_by_large_index(const Mutant& mutant, Executor& executor, MutantResult& out) {
  const KernelKind kernel = mutant.configuration.kernel;
  const LargeIndexOutcome control = check_large_index(executor, kernel);
  if (!control.ok) {
    out.status = MutantStatus::Error;
    out.reason =
        "the unmutated kernel fails the large-index check, so it cannot judge the "
        "mutant: " +
        control.explanation;
    return;
  }
  const LargeIndexOutcome o =
      check_large_index(*mutant_executor(executor, mutant.kernel->entry), kernel);
  out.laws_tried = 1;
  out.cases_to_kill = out.cases_total = 1;
  out.status = o.ok ? MutantStatus::Survived : MutantStatus::Killed;
  if (!o.ok) {
    out.killed_by = "large_index";
    out.reason = o.explanation;
  }
}

/// Runs the claimed laws of the suite in order until one fails.
void judge_by_suite(const Mutant& mutant, Executor& executor, const RunSettings& settings,
                    MutantResult& out) {
  for (const LawSpec& law : law_suite(mutant.configuration)) {
    const PropertyInfo* p = find_property(law.property);
    if (!p) throw std::logic_error("the suite names an unregistered property " + law.property);
    if (!p->claimed(mutant.configuration)) continue;  // the original fails it too: no evidence
    const LawOutcome o = run_law(law, executor, settings.budget);
    if (!o.not_run.empty()) continue;  // cannot run on this executor: neither tried nor a kill
    ++out.laws_tried;
    out.cases_total += o.cases_run;
    if (!o.error.empty() && !o.failed) {
      out.status = MutantStatus::Error;
      out.reason = law.property + ": " + o.error;
      return;
    }
    if (!o.failed) continue;
    out.status = MutantStatus::Killed;
    out.killed_by = law.property;
    out.cases_to_kill = o.cases_run;
    out.reason = o.verdict.explanation;
    out.shrunk_size = counterexample_size(*o.shrunk);
    out.shrunk_unit = counterexample_unit(*o.shrunk);
    out.regression_file = save_counterexample(mutant, o, executor, settings);
    return;
  }
  out.status = MutantStatus::Survived;
  out.reason = "every claimed law held on " + std::to_string(out.cases_total) + " cases";
}

}  // namespace

constexpr EnumName<MutantStatus> kMutantStatusNames[] = {{MutantStatus::Killed, "killed"},
                                                         {MutantStatus::Survived, "survived"},
                                                         {MutantStatus::Skipped, "not run"},
                                                         {MutantStatus::Error, "error"}};

const char* to_string(MutantStatus s) {
  return name_in(kMutantStatusNames, s);
}

MutantStatus parse_status(const std::string& s) {
  if (const auto status = value_in(kMutantStatusNames, s)) return *status;
  throw std::invalid_argument("unknown mutant status \"" + s + "\"");
}

MutantResult run_mutant(const Mutant& mutant, Executor& executor, const RunSettings& settings) {
  MutantResult out;
  out.mutant = mutant.name;
  out.bug = mutant.bug;
  out.combine_level = mutant.combine_level;
  if (const auto why = skip_reason(mutant, executor)) {
    out.status = MutantStatus::Skipped;
    out.reason = *why;
    return out;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    if (needs_large_index_check(mutant))
      judge_by_large_index(mutant, executor, out);
    else
      judge_by_suite(mutant, executor, settings, out);
  } catch (const std::exception& e) {
    out.status = MutantStatus::Error;
    out.reason = e.what();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::vector<MutantResult> run_all(Executor& executor, const RunSettings& settings,
                                  const std::function<void(const MutantResult&)>& progress) {
  std::vector<MutantResult> out;
  for (const Mutant& m : all_mutants()) {
    out.push_back(run_mutant(m, executor, settings));
    if (progress) progress(out.back());
  }
  return out;
}

}  // namespace osvs::mutation
