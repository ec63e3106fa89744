// Row-wise kernels' cases for the law runs (kind_cases.h): batches of rows whose first input is
// what the forward gives (softmax probabilities y, log-softmax outputs z, of random logits,
// rounded to the input type) and whose dy has small integers, mixed magnitudes or a common
// offset (dy_j = c + small: dy_i - sum_j y_j dy_j then cancels, where a contract in ulps of dx
// alone would be wrong); row 0 masked for empty_rows, holding NaN or infinities for
// special_values; paddings, a batch position and a permutation for the invariances. And the
// reductions of a failing case: fewer rows, fewer columns, simpler dy values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "column_removal.h"
#include "kind_cases.h"
#include "osvs/api/rowwise_ops.h"

namespace osvs::testbed {
namespace {

/// n logits: small integers (ties), or mixed magnitudes up to 2^5.
std::vector<double> logits(std::int64_t n) {
  const bool ties = *rc::gen::arbitrary<bool>();
  std::vector<double> x;
  for (std::int64_t j = 0; j < n; ++j)
    x.push_back(ties ? *rc::gen::inRange(-8, 9)
                     : std::ldexp(*rc::gen::inRange(-(1 << 20), 1 << 20), -15));
  return x;
}

/// The forward's output of the logits for `op` (softmax y or log-softmax z, in binary64),
/// rounded to type t: what a backward is handed.
std::vector<float> forward_output(RowwiseOp op, const std::vector<double>& x, DType t) {
  const double m = *std::max_element(x.begin(), x.end());
  double d = 0;
  for (double v : x) d += std::exp(v - m);
  std::vector<float> out;
  for (double v : x)
    out.push_back(
        round_to(t, static_cast<float>(op == RowwiseOp::SoftmaxBackward ? std::exp(v - m) / d
                                                                        : (v - m) - std::log(d))));
  return out;
}

/// n upstream gradients in type t: small integers, mixed magnitudes (2^-20 ... 2^10), or a
/// common offset c plus small integers.
std::vector<float> upstream(std::int64_t n, DType t) {
  const int style = *rc::gen::inRange(0, 3);
  const double offset =
      style == 2 ? std::ldexp(*rc::gen::inRange(1, 256), *rc::gen::inRange(-4, 8)) : 0.0;
  std::vector<float> dy;
  for (std::int64_t j = 0; j < n; ++j) {
    double v;
    if (style == 1)
      v = std::ldexp(*rc::gen::inRange(-(1 << 23), 1 << 23), *rc::gen::inRange(-43, -13));
    else
      v = offset + *rc::gen::inRange(-4, 5);
    dy.push_back(round_to(t, static_cast<float>(v)));
  }
  return dy;
}

/// A special value for input array `a` of op: one its values can hold. The forward's output
/// (a = 0) only as the forward can give it: a softmax's y is NaN (a NaN row) but never an
/// infinity, a log-softmax's z is NaN or -inf (a zero probability) but never +inf; dy (a = 1)
/// any of +-inf and NaN. An input no forward produces has no convention a kernel must follow:
/// torch's y dy - y s and the semantics' y (dy - s) differ at y = +inf (NaN against -inf, found
/// on torch's softmax backward) and neither is wrong (docs/semantics.md §11).
float special_value(RowwiseOp op, std::size_t a) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  if (a == 0) {
    if (op == RowwiseOp::SoftmaxBackward) return nan;
    return *rc::gen::inRange(0, 2) == 0 ? -inf : nan;
  }
  const int which = *rc::gen::inRange(0, 3);
  return which == 0 ? inf : which == 1 ? -inf : nan;
}

RowwiseCase draw_case(const RowwiseKernel& k, const std::string& law) {
  const RowwiseOp op = k.op();
  const std::int64_t cap = std::min<std::int64_t>(k.traits().max_cols, 600);
  const std::int64_t n =
      std::min(cap, static_cast<std::int64_t>(*rc::gen::weightedOneOf<int>(
                        {{8, rc::gen::inRange(1, 41)}, {1, rc::gen::inRange(100, 601)}})));
  const int min_rows = law == "batch_invariance" ? 2 : 1;
  const int rows = *rc::gen::inRange(min_rows, 5);
  RowwiseCase c;
  c.inputs.resize(2);
  for (int r = 0; r < rows; ++r) {
    c.inputs[0].push_back(forward_output(op, logits(n), k.in_types()[0]));
    c.inputs[1].push_back(upstream(n, k.in_types()[1]));
  }
  if (law == "empty_rows")
    std::fill(c.inputs[0][0].begin(), c.inputs[0][0].end(), masked_input(op));
  if (law == "special_values") {
    const auto count = *rc::gen::inRange<std::int64_t>(1, std::min<std::int64_t>(n, 3) + 1);
    for (std::int64_t i = 0; i < count; ++i) {
      const auto a = static_cast<std::size_t>(*rc::gen::inRange(0, 2));
      const auto j = static_cast<std::size_t>(*rc::gen::inRange<std::int64_t>(0, n));
      c.inputs[a][0][j] = special_value(op, a);
    }
  }
  if (law == "batch_invariance") c.batch_position = *rc::gen::inRange(0, rows);
  if (law == "strided") {
    c.pads =
        *rc::gen::container<std::vector<std::int64_t>>(3, rc::gen::inRange<std::int64_t>(0, 4));
    c.pads[static_cast<std::size_t>(*rc::gen::inRange(0, 3))] = *rc::gen::inRange(1, 4);
  }
  if (law == "permutation") {
    c.permutation.resize(static_cast<std::size_t>(n));
    std::iota(c.permutation.begin(), c.permutation.end(), 0);
    for (std::size_t i = c.permutation.size(); i > 1; --i)
      std::swap(c.permutation[i - 1],
                c.permutation[static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, i))]);
  }
  return c;
}

/// c without columns [first, first + count) of every row of every input (column_removal.h).
RowwiseCase without_columns(const RowwiseCase& c, std::size_t first, std::size_t count) {
  RowwiseCase out = c;
  for (Rows& a : out.inputs) erase_columns(a, first, count);
  out.permutation = permutation_without_columns(c.permutation, first, count);
  return out;
}

/// c without row r (r >= 1: the subject row 0 stays).
RowwiseCase without_row(const RowwiseCase& c, std::size_t r) {
  RowwiseCase out = c;
  for (Rows& a : out.inputs) a.erase(a.begin() + static_cast<std::ptrdiff_t>(r));
  out.batch_position = std::min(out.batch_position, out.rows() - 1);
  return out;
}

}  // namespace

rc::Gen<RowwiseCase> law_cases(const RowwiseKernel& k, const RowwiseLaw& law) {
  const RowwiseKernel* kp = &k;
  const std::string name = law.name;
  return rc::gen::exec([kp, name] { return draw_case(*kp, name); });
}

std::vector<RowwiseCase> declared_cases(const RowwiseKernel&, const RowwiseLaw&) {
  return {};
}

void reduce_case(const RowwiseCase& smallest, const Reduction<RowwiseCase>& r) {
  for (std::size_t i = static_cast<std::size_t>(smallest.rows()); i-- > 1 && !r.out_of_time();)
    r.accept(without_row(smallest, i));
  for (auto chunk = static_cast<std::size_t>(smallest.cols()) / 2; chunk >= 1 && !r.out_of_time();
       chunk /= 2)
    for (std::size_t first = 0;
         first + chunk <= static_cast<std::size_t>(smallest.cols()) && !r.out_of_time();)
      if (static_cast<std::size_t>(smallest.cols()) <= chunk ||
          !r.accept(without_columns(smallest, first, chunk)))
        first += chunk;
  // Simpler upstream gradients: 0, 1, the value truncated.
  for (std::size_t j = 0; j < static_cast<std::size_t>(smallest.cols()) && !r.out_of_time(); ++j)
    for (std::size_t row = 0; row < static_cast<std::size_t>(smallest.rows()); ++row)
      for (float simpler : {0.0f, 1.0f, std::trunc(smallest.inputs[1][row][j])}) {
        const float now = smallest.inputs[1][row][j];
        if (simpler == now || std::isnan(now) || std::isinf(now)) continue;
        RowwiseCase candidate = smallest;
        candidate.inputs[1][row][j] = simpler;
        if (r.accept(candidate)) break;
      }
}

}  // namespace osvs::testbed
