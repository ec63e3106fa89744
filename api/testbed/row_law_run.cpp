#include "row_law_run.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "osvs/api/row_cases.h"

namespace osvs::testbed {

using Clock = LawClock;

namespace {

/// c without columns [first, first + count) of every row; the permutation keeps the order of the
/// remaining indices (renumbered), so it stays a permutation of the shorter row.
RowCase without_columns(const RowCase& c, std::size_t first, std::size_t count) {
  RowCase out = c;
  for (auto& row : out.rows)
    row.erase(row.begin() + static_cast<std::ptrdiff_t>(first),
              row.begin() + static_cast<std::ptrdiff_t>(first + count));
  out.permutation.clear();
  for (std::int64_t p : c.permutation) {
    const auto u = static_cast<std::size_t>(p);
    if (u < first) out.permutation.push_back(p);
    if (u >= first + count) out.permutation.push_back(p - static_cast<std::int64_t>(count));
  }
  return out;
}

/// c without row i (the subject row 0 stays the subject when a later one goes).
RowCase without_row(const RowCase& c, std::size_t i) {
  RowCase out = c;
  out.rows.erase(out.rows.begin() + static_cast<std::ptrdiff_t>(i));
  return out;
}

/// After RapidCheck's shrinking, which never shortens a row (the length is drawn first, and a
/// shorter one would regenerate every value after it): the reductions a row failure survives,
/// kept while the law still fails and the budget lasts: fewer rows; fewer columns, the same ones
/// from every row, in chunks halving from half the row down to one (ddmin); a smaller batch
/// around the subject row.
void reduce(const RowLaw& law, const RowKernel& k, RowLawRun& run, Clock::time_point deadline) {
  if (law.single_case) return;
  const auto accept = [&](const RowCase& candidate) {
    if (Clock::now() > deadline) {
      run.budget_spent = true;
      return false;
    }
    const Verdict v = judge_row(law, k, candidate);
    if (!v.fails()) return false;
    run.smallest = candidate;
    run.smallest_verdict = v;
    ++run.shrink_steps;
    return true;
  };
  for (std::size_t i = run.smallest->rows.size(); i-- > 0 && run.smallest->rows.size() > 1;)
    accept(without_row(*run.smallest, i));
  for (std::size_t chunk = run.smallest->rows[0].size() / 2; chunk >= 1; chunk /= 2)
    for (std::size_t first = 0; first + chunk <= run.smallest->rows[0].size();)
      if (run.smallest->rows[0].size() <= chunk ||
          !accept(without_columns(*run.smallest, first, chunk)))
        first += chunk;
  for (std::int64_t b = 1; b < run.smallest->batch_rows; ++b) {
    RowCase candidate = *run.smallest;
    candidate.batch_rows = b;
    candidate.batch_position = std::min(candidate.batch_position, b - 1);
    if (accept(candidate)) break;
  }
}

}  // namespace

std::string summary(const RowCase& c) {
  std::ostringstream s;
  s << c.rows.size() << " row(s) of " << (c.rows.empty() ? 0 : c.rows[0].size()) << " elements";
  if (c.layout.x_pad || c.layout.y_pad)
    s << ", padding " << c.layout.x_pad << "/" << c.layout.y_pad;
  if (c.batch_rows > 1) s << ", at row " << c.batch_position << " of " << c.batch_rows;
  return s.str();
}

Verdict judge_row(const RowLaw& law, const RowKernel& k, const RowCase& c) {
  try {
    return law.check(k, c);
  } catch (const KernelFailure& e) {
    return Verdict::fail(e.what());
  }
}

std::string why_skipped(const RowKernel& k, const RowLaw& law) {
  if (auto it = k.skips().find(law.name); it != k.skips().end())
    return k.name() + " declares: " + it->second;
  if (std::string why = law.excluded(k); !why.empty()) return why;
  std::string why;
  if (!runnable(k, &why)) return why;
  return "";
}

RowRegression regression_of(const RowKernel& k, const RowLaw& law, const RowLawRun& run,
                            const std::string& found_by) {
  return regression_of_run<RowRegression>(k, law.name, run, found_by);
}

RowLawRun run_row_law(const RowLaw& law, const RowKernel& k, double shrink_seconds,
                      const std::function<void(const Verdict&, const RowCase&)>& on_first,
                      const RcParams& params) {
  RowLawRun run;
  run_law_property(
      run, k.name() + ": " + law.law, row_case(k, law.name),
      [&](const RowCase& c) { return judge_row(law, k, c); }, law.single_case, shrink_seconds,
      on_first, params);
  if (run.failed()) reduce(law, k, run, run.deadline(shrink_seconds));
  return run;
}

}  // namespace osvs::testbed
