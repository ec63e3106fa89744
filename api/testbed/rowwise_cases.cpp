// Row-wise kernels' cases for the law runs (kind_cases.h): batches of rows whose first input is
// what the forward gives (softmax probabilities y, log-softmax outputs z, of random logits,
// rounded to the input type) and whose dy has small integers, mixed magnitudes or a common
// offset (dy_j = c + small: dy_i - sum_j y_j dy_j then cancels, where a contract in ulps of dx
// alone would be wrong); logsumexp's x of logits with a common offset (up to 2^20) and masked
// (-inf) elements; the norms' x with a common offset (the mean up to 2^20 times the spread: a
// one-pass variance cancels there), weights near 1, small biases and eps of 1e-5, 1e-6 or 0;
// row 0 masked for empty_rows, holding NaN or infinities for special_values; paddings, a batch
// position, a permutation, a shift and a scale for the invariances; cross-entropy's logits as
// logsumexp's, targets in the row or ignore_index (-100, -1 or 0), label smoothing 0, 0.1, 0.25
// or 1, and for its batch reductions every row ignored for empty_rows (the law adds the batch
// of no rows) and the whole batch shifted; argmax's and topk's x of ties (small integers, zeros
// of either sign) or mixed magnitudes, masked elements, and k from 1 to n. And the reductions of
// a failing case: fewer rows, fewer columns, simpler values, eps 0, no label smoothing, a
// smaller k.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

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

/// n logits of a logsumexp: logits() with a common offset (none, or up to 2^20 either way) and,
/// in one row of four, masked (-inf) elements.
std::vector<float> logsumexp_input(std::int64_t n, DType t) {
  const double offset = *rc::gen::inRange(0, 2) == 0
                            ? 0.0
                            : std::ldexp(*rc::gen::inRange(-255, 256), *rc::gen::inRange(0, 13));
  const bool masked = *rc::gen::inRange(0, 4) == 0;
  std::vector<float> x;
  for (double v : logits(n))
    x.push_back(masked && *rc::gen::inRange(0, 4) == 0
                    ? -std::numeric_limits<float>::infinity()
                    : round_to(t, static_cast<float>(offset + v)));
  return x;
}

/// n values of a norm's x: a common offset (none, or up to 2^20 times the spread) plus a spread
/// of small integers or mixed magnitudes.
std::vector<float> norm_input(std::int64_t n, DType t) {
  const int spread = *rc::gen::inRange(-6, 7);
  const double offset = *rc::gen::inRange(0, 3) == 0 ? std::ldexp(*rc::gen::inRange(-255, 256),
                                                                  spread + *rc::gen::inRange(0, 13))
                                                     : 0.0;
  std::vector<float> x;
  for (double v : logits(n))
    x.push_back(round_to(t, static_cast<float>(offset + std::ldexp(v, spread))));
  return x;
}

/// n affine parameters: weights near 1 (1 + k 2^-10, |k| < 2^9), or biases (k 2^-10).
std::vector<float> affine(std::int64_t n, DType t, bool weight) {
  std::vector<float> p;
  for (std::int64_t j = 0; j < n; ++j)
    p.push_back(round_to(t, static_cast<float>((weight ? 1.0 : 0.0) +
                                               std::ldexp(*rc::gen::inRange(-511, 512), -10))));
  return p;
}

/// A special value of input a of op (special_value() for the backward ops): x any of NaN and
/// +-inf, a weight or bias NaN (an infinite weight meets a zero deviation in 0 inf, where the
/// kernel's rounded deviation decides the class).
float special_value_of(RowwiseOp op, std::size_t a) {
  if (is_backward(op)) return special_value(op, a);
  if (a > 0) return std::numeric_limits<float>::quiet_NaN();
  return special_value(RowwiseOp::SoftmaxBackward, 1);  // NaN, +inf or -inf
}

/// n elements for argmax and topk: logits() (ties of small integers, or mixed magnitudes), every
/// zero of a random sign (+0 and -0 tie), in one row of four masked (-inf) elements.
std::vector<float> selection_input(std::int64_t n, DType t) {
  const bool masked = *rc::gen::inRange(0, 4) == 0;
  std::vector<float> x;
  for (double v : logits(n)) {
    float e = round_to(t, static_cast<float>(v));
    if (e == 0 && *rc::gen::arbitrary<bool>()) e = -0.0f;
    if (masked && *rc::gen::inRange(0, 4) == 0) e = -std::numeric_limits<float>::infinity();
    x.push_back(e);
  }
  return x;
}

/// A cross-entropy row's target: one of the n columns, or ignore_index in one row of six.
float target(std::int64_t n, std::int64_t ignore_index) {
  if (*rc::gen::inRange(0, 6) == 0) return static_cast<float>(ignore_index);
  return static_cast<float>(*rc::gen::inRange<std::int64_t>(0, n));
}

/// A shift c with x_j + c exact in t for every x_j of the rows (none if the draw has none).
float exact_shift(const Rows& rows, DType t) {
  for (int e = *rc::gen::inRange(-2, 10); e >= -6; --e) {
    const double c = std::ldexp(*rc::gen::inRange(1, 128), e);
    bool exact = true;
    for (const std::vector<float>& x : rows)
      for (float v : x) {
        const double sum = static_cast<double>(v) + c;
        exact = exact && (!std::isfinite(v) || (round_to(t, static_cast<float>(sum)) == sum &&
                                                static_cast<float>(sum) - c == v));
      }
    if (exact) return static_cast<float>(c);
  }
  return 0;
}

/// A row of n elements of op's first input (x; a backward's forward output y or z) in type t.
std::vector<float> first_input(RowwiseOp op, std::int64_t n, DType t) {
  switch (op) {
    case RowwiseOp::SoftmaxBackward:
    case RowwiseOp::LogSoftmaxBackward:
      return forward_output(op, logits(n), t);
    case RowwiseOp::Argmax:
    case RowwiseOp::TopK:
      return selection_input(n, t);
    case RowwiseOp::LayerNorm:
    case RowwiseOp::RmsNorm:
    case RowwiseOp::MeanVar:
    case RowwiseOp::MeanVarUnbiased:
      return norm_input(n, t);
    case RowwiseOp::Logsumexp:
    case RowwiseOp::CrossEntropy:  // (cross-entropy's logits are logsumexp's)
    case RowwiseOp::CrossEntropyMean:
    case RowwiseOp::CrossEntropySum:
      return logsumexp_input(n, t);
  }
  throw std::invalid_argument("row-wise op out of range");
}

RowwiseCase draw_case(const RowwiseKernel& k, const std::string& law) {
  const RowwiseOp op = k.op();
  const RowwiseSignature& sig = signature(op);
  const std::int64_t cap = std::min<std::int64_t>(k.traits().max_cols, 600);
  const std::int64_t n =
      std::min(cap, static_cast<std::int64_t>(*rc::gen::weightedOneOf<int>(
                        {{8, rc::gen::inRange(1, 41)}, {1, rc::gen::inRange(100, 601)}})));
  const int min_rows = law == "batch_invariance" ? 2 : 1;
  const int rows = *rc::gen::inRange(min_rows, 5);
  RowwiseCase c;
  c.inputs.resize(sig.inputs.size());
  const std::vector<DType>& t = k.in_types();
  if (reads_target(op)) {
    c.ignore_index = *rc::gen::element<std::int64_t>(-100, -100, -100, -1, 0);
    if (k.traits().label_smoothing)
      c.label_smoothing = *rc::gen::element(0.0f, 0.0f, 0.0f, 0.1f, 0.25f, 1.0f);
  }
  if (op == RowwiseOp::TopK)
    c.k = *rc::gen::weightedOneOf<std::int64_t>(
        {{3, rc::gen::inRange<std::int64_t>(1, std::min<std::int64_t>(n, 4) + 1)},
         {1, rc::gen::inRange<std::int64_t>(1, n + 1)}});
  for (int r = 0; r < rows; ++r) {
    c.inputs[0].push_back(first_input(op, n, t[0]));
    if (reads_target(op))
      c.inputs[1].push_back({target(n, c.ignore_index)});
    else if (is_backward(op))
      c.inputs[1].push_back(upstream(n, t[1]));
  }
  for (std::size_t a = 1; a < sig.inputs.size(); ++a)
    if (sig.inputs[a].extent == Extent::Column)
      c.inputs[a].push_back(affine(n, t[a], sig.inputs[a].name == "weight"));
  if (uses_eps(op)) c.eps = *rc::gen::element(1e-5f, 1e-5f, 1e-6f, 0.0f);
  if (law == "empty_rows" && reduces_batch(op))  // no row counted (the law adds no row at all)
    for (auto& target_row : c.inputs[1]) target_row = {static_cast<float>(c.ignore_index)};
  else if (law == "empty_rows" && op == RowwiseOp::CrossEntropy)
    c.inputs[1][0] = {static_cast<float>(c.ignore_index)};
  else if (law == "empty_rows" && has_empty_rows(op))
    std::fill(c.inputs[0][0].begin(), c.inputs[0][0].end(), masked_input(op));
  if (law == "special_values") {
    const auto count = *rc::gen::inRange<std::int64_t>(1, std::min<std::int64_t>(n, 3) + 1);
    std::vector<std::size_t> values;  // the arrays of values (an index holds no special value)
    for (std::size_t a = 0; a < sig.inputs.size(); ++a)
      if (!sig.inputs[a].index) values.push_back(a);
    for (std::int64_t i = 0; i < count; ++i) {
      const std::size_t a = *rc::gen::elementOf(values);
      const auto j = static_cast<std::size_t>(*rc::gen::inRange<std::int64_t>(0, n));
      c.inputs[a][0][j] = special_value_of(op, a);
    }
  }
  if (law == "batch_invariance")  // a batch reduction's rows reordered: row 0 moved
    c.batch_position = *rc::gen::inRange(reduces_batch(op) ? 1 : 0, rows);
  if (law == "strided") {
    const std::size_t arrays = sig.inputs.size() + sig.outputs.size();
    c.pads = *rc::gen::container<std::vector<std::int64_t>>(arrays,
                                                            rc::gen::inRange<std::int64_t>(0, 4));
    std::vector<std::size_t> paddable;
    for (std::size_t a = 0; a < arrays; ++a)
      if (a < sig.inputs.size() ? sig.inputs[a].paddable()
                                : sig.outputs[a - sig.inputs.size()].paddable())
        paddable.push_back(a);
      else
        c.pads[a] = 0;
    c.pads[*rc::gen::elementOf(paddable)] = *rc::gen::inRange(1, 4);
  }
  if (law == "permutation") {
    c.permutation.resize(static_cast<std::size_t>(n));
    std::iota(c.permutation.begin(), c.permutation.end(), 0);
    for (std::size_t i = c.permutation.size(); i > 1; --i)
      std::swap(c.permutation[i - 1],
                c.permutation[static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, i))]);
  }
  if (law == "shift_invariance")  // the subject's rows: row 0, or a batch reduction's every row
    c.shift = exact_shift(reduces_batch(op) ? c.inputs[0] : Rows{c.inputs[0][0]}, t[0]);
  if (law == "scale_invariance") {
    c.eps = 0;
    c.scale_exponent = *rc::gen::element(-8, -3, -1, 1, 2, 7);
  }
  return c;
}

/// c without columns [first, first + count) of every row of every input of values
/// (column_removal.h); a target past them moves down with its column, one among them takes the
/// first column left after them (still failing or not, a valid case); topk's k at most the
/// shorter row.
RowwiseCase without_columns(const RowwiseKernel& k, const RowwiseCase& c, std::size_t first,
                            std::size_t count) {
  RowwiseCase out = c;
  const RowwiseSignature& sig = signature(k.op());
  const auto n = static_cast<std::int64_t>(c.cols() - static_cast<std::int64_t>(count));
  for (std::size_t a = 0; a < out.inputs.size(); ++a) {
    if (!sig.inputs[a].index) {
      erase_columns(out.inputs[a], first, count);
      continue;
    }
    for (auto& row : out.inputs[a])
      for (float& t : row) {
        const auto i = static_cast<std::int64_t>(t);
        if (t == static_cast<float>(c.ignore_index) || i < static_cast<std::int64_t>(first))
          continue;
        t = static_cast<float>(
            i >= static_cast<std::int64_t>(first + count)
                ? i - static_cast<std::int64_t>(count)
                : std::min<std::int64_t>(static_cast<std::int64_t>(first), n - 1));
      }
  }
  out.permutation = permutation_without_columns(c.permutation, first, count);
  out.k = std::min(out.k, n);
  return out;
}

/// c without row r (r >= 1: the subject row 0 stays) of every array that has rows.
RowwiseCase without_row(const RowwiseCase& c, std::size_t r) {
  RowwiseCase out = c;
  for (Rows& a : out.inputs)
    if (a.size() > r) a.erase(a.begin() + static_cast<std::ptrdiff_t>(r));
  out.batch_position = std::min(out.batch_position, out.rows() - 1);
  return out;
}

/// How simple a value is, the smaller the simpler: 0, 1, another integer, anything else.
int simplicity(float v) {
  if (v == 0) return 0;
  if (v == 1) return 1;
  return std::trunc(v) == v ? 2 + (std::fabs(v) > 1 << 20) : 4;
}

}  // namespace

rc::Gen<RowwiseCase> law_cases(const RowwiseKernel& k, const RowwiseLaw& law) {
  const RowwiseKernel* kp = &k;
  const std::string name = law.name;
  return rc::gen::exec([kp, name] { return draw_case(*kp, name); });
}

void reduce_case(const RowwiseKernel& k, const RowwiseCase& smallest,
                 const Reduction<RowwiseCase>& r) {
  for (std::size_t i = static_cast<std::size_t>(smallest.rows()); i-- > 1 && !r.out_of_time();)
    r.accept(without_row(smallest, i));
  for (auto chunk = static_cast<std::size_t>(smallest.cols()) / 2; chunk >= 1 && !r.out_of_time();
       chunk /= 2)
    for (std::size_t first = 0;
         first + chunk <= static_cast<std::size_t>(smallest.cols()) && !r.out_of_time();)
      if (static_cast<std::size_t>(smallest.cols()) <= chunk ||
          !r.accept(without_columns(k, smallest, first, chunk)))
        first += chunk;
  // Simpler values of every input: 0, 1, the value truncated, each taken only where it is
  // simpler than the value now (simplicity(): a strict order, so no pass undoes another); a
  // backward's y or z taken out of the forward's range leaves its row unjudged, so such a
  // candidate is not kept. Then no eps.
  for (std::size_t a = 0; a < smallest.inputs.size(); ++a)
    for (std::size_t row = 0; row < smallest.inputs[a].size() && !r.out_of_time(); ++row)
      for (std::size_t j = 0; j < smallest.inputs[a][row].size() && !r.out_of_time(); ++j)
        for (float simpler : {0.0f, 1.0f, std::trunc(smallest.inputs[a][row][j])}) {
          const float now = smallest.inputs[a][row][j];
          // an index (a target) only to column 0, which every row has
          if (signature(k.op()).inputs[a].index && (simpler != 0 || now == smallest.ignore_index))
            continue;
          if (simplicity(simpler) >= simplicity(now) || std::isnan(now) || std::isinf(now))
            continue;
          RowwiseCase candidate = smallest;
          candidate.inputs[a][row][j] = simpler;
          if (r.accept(candidate)) break;
        }
  if (smallest.eps != 0 && !r.out_of_time()) {
    RowwiseCase candidate = smallest;
    candidate.eps = 0;
    r.accept(candidate);
  }
  if (smallest.label_smoothing != 0 && !r.out_of_time()) {
    RowwiseCase candidate = smallest;
    candidate.label_smoothing = 0;
    r.accept(candidate);
  }
  for (std::int64_t k_smaller = 1; k_smaller < smallest.k && !r.out_of_time(); ++k_smaller) {
    RowwiseCase candidate = smallest;
    candidate.k = k_smaller;
    if (r.accept(candidate)) break;
  }
}

}  // namespace osvs::testbed
