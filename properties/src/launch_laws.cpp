// Launch-level laws: a row's result does not depend on its batch (M, position), on the launch,
// or (within bounds) on the executor that ran it. Determinism and agreement with the CPU model
// need a second party: on the CPU model they are not run (the model is a pure function of the
// batch, so both would compare it with itself).
#include <cmath>
#include <stdexcept>

#include "osvs/kernels/exp.h"
#include "osvs/properties/checks.h"
#include "row_oracle.h"
#include "support.h"

namespace osvs {
namespace {

/// The batch of batch_rows rows with rows[0] at batch_position; the other positions cycle
/// through rows[1..], or hold rows[0] reversed when there is no other row.
std::vector<std::vector<float>> surrounding_batch(const Case& c) {
  if (c.rows.empty()) throw std::invalid_argument("batch_invariance needs rows[0]");
  if (c.batch_rows < 1 || c.batch_position < 0 || c.batch_position >= c.batch_rows)
    throw std::invalid_argument("batch position " + std::to_string(c.batch_position) +
                                " outside a batch of " + std::to_string(c.batch_rows) + " rows");
  std::vector<std::vector<float>> others(c.rows.begin() + 1, c.rows.end());
  if (others.empty()) others.emplace_back(c.rows[0].rbegin(), c.rows[0].rend());
  std::vector<std::vector<float>> batch;
  for (std::int64_t i = 0; i < c.batch_rows; ++i)
    batch.push_back(i == c.batch_position ? c.rows[0]
                                          : others[static_cast<std::size_t>(i) % others.size()]);
  return batch;
}

/// Row i of a result as a result of its own.
SoftmaxResult row_of(const SoftmaxResult& r, std::int64_t cols, std::int64_t i) {
  SoftmaxResult one;
  one.y.assign(r.y.begin() + i * cols, r.y.begin() + (i + 1) * cols);
  one.row_state.push_back(r.row_state[static_cast<std::size_t>(i)]);
  return one;
}

/// Non-finite rows: NaN-ness agrees and the other values are bitwise equal.
Verdict same_special_outputs(const float* a, const float* b, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j)
    if (std::isnan(a[j]) != std::isnan(b[j]) ||
        (!std::isnan(a[j]) && props::bits(a[j]) != props::bits(b[j])))
      return Verdict::fail("y[" + std::to_string(j) + "] = " + props::hex(a[j]) +
                           " vs the CPU model's " + props::hex(b[j]));
  return Verdict::pass();
}

}  // namespace

Verdict check_batch_invariance(const Case& c, Executor& ex) {
  const auto batch = surrounding_batch(c);
  const SoftmaxResult alone = ex.softmax(props::batch_of(c, {c.rows[0]}));
  const SoftmaxResult among = ex.softmax(props::batch_of(c, batch));
  const auto cols = std::ssize(c.rows[0]);
  return props::compare_bitwise(alone, row_of(among, cols, c.batch_position), cols,
                                "alone vs at row " + std::to_string(c.batch_position) + " of " +
                                    std::to_string(c.batch_rows));
}

Verdict check_determinism(const Case& c, Executor& ex) {
  if (props::is_cpu_model(ex)) return props::needs_second_party("determinism");
  const SoftmaxBatch b = props::batch_of(c, c.rows);
  const SoftmaxResult first = ex.softmax(b);
  const SoftmaxResult second = ex.softmax(b);
  return props::compare_bitwise(first, second, b.cols, "launch 1 vs launch 2");
}

Verdict check_executor_agreement(const Case& c, Executor& ex) {
  if (props::is_cpu_model(ex)) return props::needs_second_party("executor_agreement");
  const SoftmaxBatch b = props::batch_of(c, c.rows);
  const SoftmaxResult got = ex.softmax(b);
  // The CPU model of the kernel the executor runs (a mutant's, where it runs one).
  const SoftmaxResult model = make_cpu_executor()->run_softmax(ex.softmax_kernel(b), b);
  if (kPortableExp)
    return props::compare_bitwise(got, model, b.cols, "executor vs CPU model",
                                  props::NanBits::AnyNan);
  Verdict all;
  for (std::int64_t i = 0; i < b.rows; ++i) {
    const auto& row = c.rows[static_cast<std::size_t>(i)];
    const float* y = props::row_out(got, b.cols, i);
    const float* y_model = props::row_out(model, b.cols, i);
    const props::RowOracle o = props::row_oracle(c, row, props::exp_ulp(ex));
    Verdict v = same_special_outputs(y, y_model, b.cols);
    if (o.ref.kind == oracle::RowKind::Finite) {
      // The CPU model is held to its own exp's accuracy, the executor to its own.
      const oracle::SoftmaxBound model_bound = props::row_bound(c, row, kexp_max_ulp(false));
      v = props::compare_runs(
          y, o.bound.y_ulp, y_model, model_bound.y_ulp, o.ref, [](std::int64_t j) { return j; },
          "executor vs CPU model");
    }
    if (!v.holds()) {
      v.explanation = "row " + std::to_string(i) + ": " + v.explanation;
      return v;
    }
    all.evidence.insert(all.evidence.end(), v.evidence.begin(), v.evidence.end());
  }
  return all;
}

}  // namespace osvs
