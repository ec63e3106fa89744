#include "merge_law_run.h"

#include <rapidcheck.h>

#include <chrono>

#include "osvs/api/merge_runner.h"
#include "osvs/properties/gen/attention.h"

namespace osvs::testbed {

namespace {

/// c with only row `row` and component `comp` (-1: every component) of each partial.
MergeCase restricted(const MergeCase& c, std::int64_t row, int comp) {
  MergeCase out = c;
  for (AttnStates& p : out.parts) {
    const AttnStates& from = c.parts[static_cast<std::size_t>(&p - out.parts.data())];
    const auto first = static_cast<std::size_t>(row * from.head_dim);
    p.rows = 1;
    p.lse = {from.lse[static_cast<std::size_t>(row)]};
    if (comp < 0) {
      p.o.assign(from.o.begin() + static_cast<std::ptrdiff_t>(first),
                 from.o.begin() + static_cast<std::ptrdiff_t>(first) + from.head_dim);
    } else {
      p.head_dim = 1;
      p.o = {from.o[first + static_cast<std::size_t>(comp)]};
    }
  }
  return out;
}

/// c without partial i.
MergeCase without_part(const MergeCase& c, std::size_t i) {
  MergeCase out = c;
  out.parts.erase(out.parts.begin() + static_cast<std::ptrdiff_t>(i));
  return out;
}

/// After RapidCheck's shrinking, which regenerates every later value when a size shrinks: the
/// structural reductions a merge failure survives (the merge works row by row and component by
/// component): one row, then one component, then fewer partials, while the law still fails.
void reduce(const MergeLaw& law, const MergeKernel& k, MergeLawRun& run) {
  const auto accept = [&](const MergeCase& candidate) {
    const Verdict v = judge_merge(law, k, candidate);
    if (!v.fails()) return false;
    run.smallest = candidate;
    run.smallest_verdict = v;
    ++run.shrink_steps;
    return true;
  };
  for (std::int64_t r = 0; run.smallest->parts[0].rows > 1 && r < run.smallest->parts[0].rows; ++r)
    accept(restricted(*run.smallest, r, -1));
  for (int comp = 0; run.smallest->parts[0].head_dim > 1 && comp < run.smallest->parts[0].head_dim;
       ++comp)
    accept(restricted(*run.smallest, 0, comp));
  for (std::size_t i = run.smallest->parts.size(); i-- > 0 && run.smallest->parts.size() > 2;)
    accept(without_part(*run.smallest, i));
}

}  // namespace

Verdict judge_merge(const MergeLaw& law, const MergeKernel& k, const MergeCase& c) {
  try {
    return law.check(c, merge_under_test(k));
  } catch (const KernelFailure& e) {
    return Verdict::fail(e.what());
  }
}

std::string summary(const MergeCase& c) {
  const AttnStates& p = c.parts.front();
  return std::to_string(c.parts.size()) + " partials of " + std::to_string(p.rows) +
         " row(s) x head_dim " + std::to_string(p.head_dim) + ", " + to_string(p.o_type) +
         ", base " + to_string(c.base);
}

std::string why_skipped(const MergeKernel& k, const MergeLaw& law) {
  if (auto it = k.skips().find(law.name); it != k.skips().end())
    return k.name() + " declares: " + it->second;
  if (law.name == "special_values" && k.empty_partial() == EmptyPartial::PosInfLse)
    return k.name() +
           " represents an empty partial as lse +inf: a +inf lse cannot be asked "
           "about as a value";
  std::string why;
  if (!runnable(k, &why)) return why;
  return "";
}

MergeRegression regression_of(const MergeKernel& k, const MergeLaw& law, const MergeLawRun& run,
                              const std::string& found_by) {
  return regression_of_run<MergeRegression>(k, law.name, run, found_by);
}

MergeLawRun run_merge_law(const MergeLaw& law, const MergeKernel& k, double shrink_seconds,
                          const std::function<void(const Verdict&, const MergeCase&)>& on_first,
                          const RcParams& params) {
  MergeLawRun run;
  run_law_property(
      run, k.name() + ": merge " + law.name,
      rc::gen::map(gen::merge_case(), [&k](MergeCase c) { return fit_to(k, c); }),
      [&](const MergeCase& c) { return judge_merge(law, k, c); }, false, shrink_seconds, on_first,
      params);
  if (run.failed()) reduce(law, k, run);
  return run;
}

}  // namespace osvs::testbed
