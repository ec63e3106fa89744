// The row-wise laws (osvs/api/rowwise_laws.h). Each runs the kernel through the runner (which
// fails a kernel that misuses memory) and judges its outputs against the oracle
// (rowwise_ops.h) under the declared contract, or two runs' outputs against each other. A
// batch reduction's one value is judged per launch (judge_batch), its subject the whole batch
// where another op's is row 0 alone.
#include "osvs/api/rowwise_laws.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "osvs/api/kind.h"
#include "osvs/api/law_names.h"
#include "osvs/api/row_laws.h"  // not_judged, is_not_judged
#include "osvs/api/rowwise_ops.h"
#include "osvs/kernels/hex.h"
#include "rowwise_selection.h"

namespace osvs {
namespace {

bool scale_bitwise(const RowwiseKernel& k);
bool permutation_bitwise(const RowwiseKernel& k);

/// What a finite output is held to: the accuracy contract, or the exact value's rounding itself
/// (an empty row's convention).
enum class Held { ToContract, ToRounding };

/// Whether input a of k's op is shared by every row (a Column array: one row in a case).
bool shared(const RowwiseKernel& k, std::size_t a) {
  return signature(k.op()).inputs[a].extent == Extent::Column;
}

/// Row r of every input (a shared array's one row).
RowInputs row_of(const RowwiseKernel& k, const std::vector<Rows>& inputs, std::int64_t r) {
  RowInputs in;
  for (std::size_t a = 0; a < inputs.size(); ++a)
    in.push_back(inputs[a][shared(k, a) ? 0 : static_cast<std::size_t>(r)].data());
  return in;
}

/// Every row of the batch (none for an empty batch).
std::vector<RowInputs> rows_of(const RowwiseKernel& k, const std::vector<Rows>& inputs) {
  std::vector<RowInputs> rows;
  for (std::size_t r = 0; r < inputs[0].size(); ++r)
    rows.push_back(row_of(k, inputs, static_cast<std::int64_t>(r)));
  return rows;
}

/// The rows of a launch whose outputs are compared one by one: one (the batch's value) for a
/// batch reduction.
std::int64_t output_rows(const RowwiseKernel& k, std::int64_t rows) {
  return reduces_batch(k.op()) ? 1 : rows;
}

/// How a comparison names output row r: "row r", or "the batch".
std::string output_row_name(const RowwiseKernel& k, std::int64_t r) {
  return reduces_batch(k.op()) ? "the batch" : "row " + std::to_string(r);
}

/// ulp of the output type at a value of binade b: 2^(max(b, emin) - p + 1).
double ulp_at(DType t, int binade) {
  return std::ldexp(1.0, std::max(binade, min_exponent_of(t)) - precision_of(t) + 1);
}

/// The allowed error of an element: the contract's, widened by the reference's own error (its
/// double value within 2^-53 relative of the exact, the condition term within (n + 2) 2^-53).
double tolerance(const RowwiseAccuracy& a, DType t, const oracle::ExactElement& e, double cond,
                 std::int64_t n) {
  const double contract = a.ulps * ulp_at(t, e.binade) +
                          (a.cond_rel + a.cond_rel_per_element * static_cast<double>(n)) * cond;
  return contract * (1 + 0x1p-30) + 0x1p-52 * std::fabs(e.value);
}

/// The class of a failing output (Verdict::findings).
std::string how_it_failed(float y, const oracle::ExactElement& e, Held held) {
  if (std::isnan(e.value)) return "a value instead of NaN";
  if (std::isnan(y)) return "NaN instead of a value";
  if (std::isinf(y) != std::isinf(e.rounded))
    return std::isinf(y) ? "infinite instead of finite" : "finite instead of infinite";
  return held == Held::ToRounding ? "not the exact value" : "outside the contract";
}

/// The cross-entropies' parameters (and the row's target, given a row), as a judgement prints
/// them ("" for the other ops).
std::string params_text(const RowwiseKernel& k, const RowInputs* in, const RowwiseParams& p) {
  if (!reads_target(k.op())) return "";
  return (in ? ", target " + std::to_string(static_cast<std::int64_t>((*in)[1][0])) : "") +
         ", ignore_index " + std::to_string(p.ignore_index) + ", label_smoothing " +
         readable(p.label_smoothing);
}

/// The judgement of some rows of a launch's outputs.
struct RowsJudged {
  Verdict verdict;
  int judged = 0;  ///< elements judged
};

/// The judgement of one output element.
struct ElementJudged {
  bool ok = true;
  double tol = 0;  ///< the contract's tolerance (0 where held otherwise)
};

/// Judges y against the exact e: NaN where e is NaN (any bits), e's infinity where e rounds to
/// one, else within the contract (cond, and n the contract's) where held == ToContract, or
/// equal to e's rounding (+-0 alike); nothing where e is finite and no contract is declared.
std::optional<ElementJudged> judge_element(const RowwiseAccuracy& a, DType t, float y,
                                           const oracle::ExactElement& e, double cond,
                                           std::int64_t n, Held held) {
  if (std::isnan(e.value)) return ElementJudged{std::isnan(y)};
  if (std::isinf(e.rounded) || held == Held::ToRounding) return ElementJudged{y == e.rounded};
  if (!a.declared) return std::nullopt;
  const double tol = tolerance(a, t, e, cond, n);
  return ElementJudged{std::isfinite(y) && std::fabs(static_cast<double>(y) - e.value) <= tol, tol};
}

/// What a failing element's explanation ends with: the exact value and the error against the
/// tolerance, or the rounding it was held to.
std::string failure_tail(const RowwiseAccuracy& a, DType t, float y, const oracle::ExactElement& e,
                         const ElementJudged& j, double cond, Held held) {
  std::string why = ": exact " + readable(e.value);
  if (j.tol > 0)
    why += ", error " + digits9(std::fabs(static_cast<double>(y) - e.value)) + " > tolerance " +
           digits9(j.tol) + " (" + a.describe() + ", cond " + digits9(cond) + ")";
  else if (held == Held::ToRounding && std::isfinite(e.value))
    why += ", which rounds to " + readable(e.rounded) + " in " + to_string(t);
  return why;
}

/// Judges output rows `rows` of `out` (the launch of `inputs`): a NaN exact value asks for a NaN
/// (any bits), an infinite rounding for that infinity, a finite exact value for an output within
/// the contract (held == ToContract; not judged without one) or equal to its rounding (±0 alike).
/// Every class of failure is a finding; the verdict's explanation is the first's.
RowsJudged judge_rows(const RowwiseKernel& k, const std::vector<Rows>& inputs,
                      const RowwiseParams& params, const RowwiseOutputs& out,
                      const std::vector<std::int64_t>& rows, Held held,
                      const std::string& context) {
  const RowwiseSignature& sig = signature(k.op());
  const RowwiseAccuracy& a = k.accuracy();
  RowsJudged r;
  std::vector<Finding> findings;
  std::vector<Evidence> evidence;
  for (std::int64_t row : rows) {
    const RowInputs in = row_of(k, inputs, row);
    if (!in_forward_range(k.op(), in, out.cols)) continue;  // no convention owed (rowwise_ops.h)
    if (selects(k.op())) {  // exact under the tie rule (rowwise_selection.h)
      const bool topk = k.op() == RowwiseOp::TopK;
      const SelectionRow selection{in[0], out.cols, topk ? params.k : 1,
                                   topk ? out.row(0, row) : nullptr, out.row(topk ? 1 : 0, row)};
      r.judged += static_cast<int>(selection.k);
      if (auto f = selection_problem(k, selection, context + "row " + std::to_string(row) + ": "))
        add_finding(findings, std::move(*f));
      continue;
    }
    const auto exact = rowwise_exact(k.op(), in, out.cols, params, k.out_types(), k.traits());
    for (std::size_t b = 0; b < sig.outputs.size(); ++b) {
      const std::vector<double> cond = rowwise_condition(k.op(), b, in, out.cols, params);
      const DType t = k.out_types()[b];
      for (std::int64_t j = 0; j < out.widths[b]; ++j) {
        const float y = out.row(b, row)[j];
        const oracle::ExactElement& e = exact[b][static_cast<std::size_t>(j)];
        const double c = cond[static_cast<std::size_t>(j)];
        const auto judged = judge_element(a, t, y, e, c, out.cols, held);
        if (!judged) continue;  // no contract: a finite output is not judged
        ++r.judged;
        if (judged->ok) continue;
        const bool per_row = sig.outputs[b].extent == Extent::Row;  // one value a row (lse)
        const std::string element =
            sig.outputs[b].name + (per_row ? "" : "[" + std::to_string(j) + "]");
        std::string inputs_text;
        for (std::size_t i = 0; i < sig.inputs.size() && !per_row; ++i)
          inputs_text += (i ? ", " : "") + sig.inputs[i].name + "[" + std::to_string(j) +
                         "] = " + readable(in[i][j]);
        if (per_row) inputs_text = "the row";
        const std::string why =
            context + "row " + std::to_string(row) + ": " + element + " = " + readable(y) +
            " for " + inputs_text + " (n = " + std::to_string(out.cols) +
            (uses_eps(k.op()) ? ", eps " + readable(params.eps) : "") +
            params_text(k, &in, params) + ")" + failure_tail(a, t, y, e, *judged, c, held);
        add_finding(findings, {how_it_failed(y, e, held), why});
        if (evidence.empty())
          evidence.push_back(
              {element, y, e.value, std::fabs(static_cast<double>(y) - e.value), judged->tol});
      }
    }
  }
  if (!findings.empty()) {
    const std::string first = findings.front().explanation;
    r.verdict = Verdict::fail(first, std::move(evidence), std::move(findings));
  }
  return r;
}

/// Judges a batch reduction's one value (of each output) of the launch of `inputs` (rows of
/// `cols` elements; none: the empty batch) against the batch's exact value under the declared
/// conventions, as judge_rows judges an element: the contract's n is rows * cols, its cond the
/// batch's (rowwise_ops.h).
RowsJudged judge_batch(const RowwiseKernel& k, const std::vector<Rows>& inputs, std::int64_t cols,
                       const RowwiseParams& params, const RowwiseOutputs& out, Held held,
                       const std::string& context) {
  const RowwiseSignature& sig = signature(k.op());
  const std::vector<RowInputs> rows = rows_of(k, inputs);
  const auto exact = rowwise_batch_exact(k.op(), rows, cols, params, k.out_types(), k.traits());
  const double cond = rowwise_batch_condition(k.op(), rows, cols, params);
  const auto n = static_cast<std::int64_t>(rows.size()) * cols;
  std::int64_t counted = 0;
  for (const RowInputs& in : rows) counted += is_empty_row(k.op(), in, cols, params) ? 0 : 1;
  RowsJudged r;
  std::vector<Finding> findings;
  std::vector<Evidence> evidence;
  for (std::size_t b = 0; b < sig.outputs.size(); ++b) {
    const DType t = k.out_types()[b];
    const float y = out.row(b, 0)[0];
    const auto judged = judge_element(k.accuracy(), t, y, exact[b], cond, n, held);
    if (!judged) continue;
    ++r.judged;
    if (judged->ok) continue;
    const std::string why = context + sig.outputs[b].name + " = " + readable(y) +
                            " for the batch of " + std::to_string(rows.size()) + " row(s) of " +
                            std::to_string(cols) + " elements (" + std::to_string(counted) +
                            " counted" + params_text(k, nullptr, params) + ", " +
                            (k.op() == RowwiseOp::CrossEntropyMean
                                 ? std::string("mean of none ") + to_string(k.traits().mean_of_none)
                                 : std::string("sum")) +
                            ")" + failure_tail(k.accuracy(), t, y, exact[b], *judged, cond, held);
    add_finding(findings, {how_it_failed(y, exact[b], held), why});
    if (evidence.empty())
      evidence.push_back({sig.outputs[b].name, y, exact[b].value,
                          std::fabs(static_cast<double>(y) - exact[b].value), judged->tol});
  }
  if (!findings.empty()) {
    const std::string first = findings.front().explanation;
    r.verdict = Verdict::fail(first, std::move(evidence), std::move(findings));
  }
  return r;
}

/// judge_rows, or judge_batch (every row of the launch) for a batch reduction.
RowsJudged judge(const RowwiseKernel& k, const std::vector<Rows>& inputs,
                 const RowwiseParams& params, const RowwiseOutputs& out,
                 const std::vector<std::int64_t>& rows, Held held, const std::string& context) {
  if (reduces_batch(k.op())) return judge_batch(k, inputs, out.cols, params, out, held, context);
  return judge_rows(k, inputs, params, out, rows, held, context);
}

std::vector<std::int64_t> every_row(const RowwiseCase& c) {
  std::vector<std::int64_t> rows;
  for (std::int64_t r = 0; r < c.rows(); ++r) rows.push_back(r);
  return rows;
}

bool has_special_value(const RowwiseKernel& k, const std::vector<Rows>& inputs, std::int64_t r) {
  const RowInputs in = row_of(k, inputs, r);
  const auto n = static_cast<std::int64_t>(inputs[0][0].size());
  for (std::size_t a = 0; a < in.size(); ++a)
    for (std::int64_t j = 0; j < n && !signature(k.op()).inputs[a].index; ++j)
      if (!std::isfinite(in[a][j])) return true;
  return false;
}

/// Whether the laws can judge k's outputs on their own: against its contract, or exactly (the
/// selecting ops).
bool judgeable(const RowwiseKernel& k) {
  return k.accuracy().declared || selects(k.op());
}

Verdict check_accuracy(const RowwiseKernel& k, const RowwiseCase& c) {
  const RowwiseOutputs out = run_rowwise_kernel(k, c.inputs, c);
  const RowsJudged r = judge(k, c.inputs, c, out, every_row(c), Held::ToContract, "");
  if (r.verdict.fails()) return r.verdict;
  if (!judgeable(k)) return not_judged("no accuracy contract declared");
  if (r.judged == 0) return not_judged("no row within the forward's range (in_forward_range)");
  return r.verdict;
}

/// A batch reduction's conventions: the batch of the case where its every row is ignored (no
/// row counted), and the batch of no rows of the case's length, each held to its exact value
/// under the declared mean_of_none (the empty sum +0; the mean NaN or 0).
Verdict check_batch_conventions(const RowwiseKernel& k, const RowwiseCase& c) {
  bool all_ignored = true;
  for (std::int64_t r = 0; r < c.rows(); ++r)
    all_ignored = all_ignored && is_empty_row(k.op(), row_of(k, c.inputs, r), c.cols(), c);
  if (all_ignored) {
    const RowwiseOutputs out = run_rowwise_kernel(k, c.inputs, c);
    const RowsJudged r =
        judge_batch(k, c.inputs, c.cols(), c, out, Held::ToRounding, "every row ignored: ");
    if (r.verdict.fails()) return r.verdict;
  }
  const std::vector<Rows> none(c.inputs.size());
  const RowwiseOutputs out = run_rowwise_empty_batch(k, c.cols(), c);
  return judge_batch(k, none, c.cols(), c, out, Held::ToRounding, "no row: ").verdict;
}

Verdict check_empty_rows(const RowwiseKernel& k, const RowwiseCase& c) {
  if (reduces_batch(k.op())) return check_batch_conventions(k, c);
  std::vector<std::int64_t> empty;
  for (std::int64_t r = 0; r < c.rows(); ++r)
    if (is_empty_row(k.op(), row_of(k, c.inputs, r), c.cols(), c)) empty.push_back(r);
  if (empty.empty()) return not_judged("the case has no empty row");
  const RowwiseOutputs out = run_rowwise_kernel(k, c.inputs, c);
  return judge_rows(k, c.inputs, c, out, empty, Held::ToRounding, "empty ").verdict;
}

Verdict check_special_values(const RowwiseKernel& k, const RowwiseCase& c) {
  std::vector<std::int64_t> special;
  for (std::int64_t r = 0; r < c.rows(); ++r)
    if (has_special_value(k, c.inputs, r)) special.push_back(r);
  if (special.empty()) return not_judged("the case has no row holding NaN or an infinity");
  const RowwiseOutputs out = run_rowwise_kernel(k, c.inputs, c);
  const RowsJudged r = judge(k, c.inputs, c, out, special, Held::ToContract, "special ");
  if (r.judged == 0) return not_judged("no output with a NaN or infinite exact value");
  return r.verdict;
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The first element where two launches' rows differ in their bits, or "" (`what` names them);
/// a Batch output's one value whatever the rows named.
std::string first_difference(const RowwiseKernel& k, const RowwiseOutputs& x, std::int64_t rx,
                             const RowwiseOutputs& y, std::int64_t ry,
                             const std::vector<std::int64_t>& perm, const std::string& what) {
  const RowwiseSignature& sig = signature(k.op());
  for (std::size_t b = 0; b < sig.outputs.size(); ++b) {
    const bool batch = sig.outputs[b].extent == Extent::Batch;
    for (std::int64_t j = 0; j < x.widths[b]; ++j) {
      // a reduced value (or topk's k): not permuted with the columns
      const bool per_row = sig.outputs[b].extent != Extent::Element;
      const std::int64_t jy = perm.empty() || per_row ? j : perm[static_cast<std::size_t>(j)];
      const float u = x.row(b, batch ? 0 : rx)[j], v = y.row(b, batch ? 0 : ry)[jy];
      if (same_bits(u, v)) continue;
      return what + ": " + sig.outputs[b].name + (per_row ? "" : "[" + std::to_string(j) + "]") +
             " = " + readable(u) + " but " + readable(v);
    }
  }
  return "";
}

Verdict check_determinism(const RowwiseKernel& k, const RowwiseCase& c) {
  const RowwiseOutputs a = run_rowwise_kernel(k, c.inputs, c),
                       b = run_rowwise_kernel(k, c.inputs, c);
  for (std::int64_t r = 0; r < output_rows(k, c.rows()); ++r)
    if (const std::string d = first_difference(k, a, r, b, r, {},
                                               output_row_name(k, r) + ", first and second launch");
        !d.empty())
      return Verdict::fail(d);
  return Verdict::pass();
}

/// The subject of the laws that follow one launch's value: row 0 of every input (a shared array
/// whole) alone, or the whole batch for a batch reduction (its value is the batch's).
std::vector<Rows> subject(const RowwiseKernel& k, const RowwiseCase& c) {
  if (reduces_batch(k.op())) return c.inputs;
  std::vector<Rows> alone;
  for (const Rows& a : c.inputs) alone.push_back({a[0]});
  return alone;
}

/// The subject with x (input 0) changed by f in every row, or nothing where a changed value is
/// not exact in x's type (a sum rounded, a scaled value overflowed or underflowed).
template <class F>
std::optional<std::vector<Rows>> subject_with_x(const RowwiseKernel& k, const RowwiseCase& c, F f) {
  std::vector<Rows> changed_rows = subject(k, c);
  for (std::vector<float>& row : changed_rows[0])
    for (float& v : row) {
      const double exact = f(static_cast<double>(v));
      const float changed = round_to(k.in_types()[0], static_cast<float>(exact));
      if (std::isfinite(v) && changed != exact) return std::nullopt;
      v = std::isfinite(v) ? changed : v;
    }
  return changed_rows;
}

/// Bits where k declares them, else both launches within the contract: the verdict of an
/// invariance between the subject (`alone`, its row 0) and the other launch (row r of `other`,
/// of inputs `other_inputs`, its columns permuted by `perm`).
Verdict invariance(const RowwiseKernel& k, bool bitwise, const RowwiseCase& c,
                   const RowwiseOutputs& alone, const std::vector<Rows>& other_inputs,
                   const RowwiseOutputs& other, std::int64_t r,
                   const std::vector<std::int64_t>& perm, const std::string& what) {
  if (bitwise) {
    const std::string d = first_difference(k, alone, 0, other, r, perm, what);
    return d.empty() ? Verdict::pass() : Verdict::fail(d);
  }
  const std::string first = reduces_batch(k.op()) ? "" : "alone: ";
  const RowsJudged x = judge(k, subject(k, c), c, alone, {0}, Held::ToContract, first);
  if (x.verdict.fails()) return x.verdict;
  return judge(k, other_inputs, c, other, {r}, Held::ToContract, what + ": ").verdict;
}

/// A row alone vs at position p of the batch; a batch reduction's batch vs its rows reordered
/// (row 0 moved to p, the rows before it up by one): a permutation of the rows.
Verdict check_batch_invariance(const RowwiseKernel& k, const RowwiseCase& c) {
  if (c.rows() < 2) return not_judged("a batch of one row");
  std::vector<Rows> batch = c.inputs;  // the subject moved from row 0 to batch_position
  const auto p = static_cast<std::size_t>(c.batch_position % c.rows());
  for (std::size_t a = 0; a < batch.size(); ++a)
    if (!shared(k, a))
      std::rotate(batch[a].begin(), batch[a].begin() + 1,
                  batch[a].begin() + 1 + static_cast<std::ptrdiff_t>(p));
  if (reduces_batch(k.op()) && p == 0) return not_judged("the rows in their order");
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject(k, c), c);
  const RowwiseOutputs in_batch = run_rowwise_kernel(k, batch, c);
  const std::string what =
      reduces_batch(k.op())
          ? "the batch vs its rows reordered (row 0 moved to row " + std::to_string(p) + ")"
          : "the row alone vs at row " + std::to_string(p) + " of " + std::to_string(c.rows());
  return invariance(k, k.traits().batch_invariant, c, alone, batch, in_batch,
                    static_cast<std::int64_t>(p), {}, what);
}

Verdict check_strided(const RowwiseKernel& k, const RowwiseCase& c) {
  bool padded = false;
  for (std::int64_t pad : c.pads) padded = padded || pad > 0;
  if (!padded) return not_judged("no array is padded");
  const RowwiseOutputs dense = run_rowwise_kernel(k, c.inputs, c);
  const RowwiseOutputs strided = run_rowwise_kernel(k, c.inputs, c, c.pads);
  std::string pads;
  for (std::int64_t pad : c.pads) pads += (pads.empty() ? "" : "/") + std::to_string(pad);
  for (std::int64_t r = 0; r < output_rows(k, c.rows()); ++r)
    if (const std::string d = first_difference(
            k, dense, r, strided, r, {},
            output_row_name(k, r) + ", dense vs padded by " + pads + " elements a row");
        !d.empty())
      return Verdict::fail(d);
  return Verdict::pass();
}

Verdict check_permutation(const RowwiseKernel& k, const RowwiseCase& c) {
  const auto n = static_cast<std::size_t>(c.cols());
  if (c.permutation.size() != n) return not_judged("no permutation of the row's columns");
  if (reads_target(k.op()) && c.ignore_index >= 0 && c.ignore_index < static_cast<std::int64_t>(n))
    return not_judged("ignore_index names a column: a permuted target could become it");
  // out_permuted[j] must be out[perm[j]]: compare out[perm[j]] with out_permuted[j] through the
  // inverse, so that first_difference reads the unpermuted launch in order. Every row of the
  // subject (a batch reduction's every row) is permuted alike.
  std::vector<std::int64_t> inverse(n);
  for (std::size_t j = 0; j < n; ++j)
    inverse[static_cast<std::size_t>(c.permutation[j])] = static_cast<std::int64_t>(j);
  std::vector<Rows> permuted = subject(k, c);
  for (std::size_t a = 0; a < permuted.size(); ++a)
    for (std::vector<float>& row : permuted[a]) {
      if (signature(k.op()).inputs[a].index) {  // a column index: where its column went
        for (float& t : row)
          if (t >= 0 && t < static_cast<float>(n))
            t = static_cast<float>(inverse[static_cast<std::size_t>(t)]);
        continue;
      }
      std::vector<float> moved(n);
      for (std::size_t j = 0; j < n; ++j)
        moved[j] = row[static_cast<std::size_t>(c.permutation[j])];
      row = std::move(moved);
    }
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject(k, c), c);
  const RowwiseOutputs other = run_rowwise_kernel(k, permuted, c);
  return invariance(k, permutation_bitwise(k), c, alone, permuted, other, 0, inverse,
                    reduces_batch(k.op()) ? "the batch vs every row's columns permuted"
                                          : "the row vs its columns permuted");
}

Verdict check_shift_invariance(const RowwiseKernel& k, const RowwiseCase& c) {
  if (c.shift == 0) return not_judged("no shift");
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject(k, c), c);
  const auto shifted = subject_with_x(k, c, [&](double v) { return v + c.shift; });
  if (!shifted) return not_judged("x + c is not exact in x's type");
  const RowwiseOutputs other = run_rowwise_kernel(k, *shifted, c);
  // logsumexp's result moves with the shift, layer_norm's rounds its mean otherwise: no bits to
  // compare, both launches within the contract.
  return invariance(
      k, false, c, alone, *shifted, other, 0, {},
      (reduces_batch(k.op()) ? "the batch vs x + " : "the row vs x + ") + readable(c.shift));
}

Verdict check_scale_invariance(const RowwiseKernel& k, const RowwiseCase& c) {
  if (c.scale_exponent == 0) return not_judged("no scale");
  if (c.eps != 0) return not_judged("eps != 0: the exact result changes with the scale");
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject(k, c), c);
  const auto scaled =
      subject_with_x(k, c, [&](double v) { return std::ldexp(v, c.scale_exponent); });
  if (!scaled) return not_judged("x 2^k is not exact in x's type");
  const RowwiseOutputs other = run_rowwise_kernel(k, *scaled, c);
  return invariance(k, scale_bitwise(k), c, alone, *scaled, other, 0, {},
                    "the row vs x 2^" + std::to_string(c.scale_exponent));
}

std::string nothing_excluded(const RowwiseKernel&) {
  return "";
}
std::string empty_rows_excluded(const RowwiseKernel& k) {
  return has_empty_rows(k.op()) ? "" : std::string(to_string(k.op())) + " has no empty row";
}
std::string shift_excluded(const RowwiseKernel& k) {
  if (!shift_invariant(k.op()))
    return std::string(to_string(k.op())) + " does not move with (or ignore) a shift of x";
  return judgeable(k) ? "" : k.name() + " declares no accuracy contract";
}
/// "" when k declares the invariance `claim` names (`declared`) or an accuracy contract: an
/// invariance law then asks for the bits or for the contract; otherwise why it is left out.
std::string claim_or_contract(const RowwiseKernel& k, bool declared, const char* claim) {
  return declared || judgeable(k)
             ? ""
             : k.name() + " declares neither " + claim + " nor an accuracy contract";
}
std::string scale_excluded(const RowwiseKernel& k) {
  if (!scale_invariant(k.op()))
    return std::string(to_string(k.op())) + " is not invariant under a scaling of x";
  return claim_or_contract(k, k.traits().scale_invariant, "scale invariance");
}
bool never_bitwise(const RowwiseKernel&) {
  return false;
}
bool scale_bitwise(const RowwiseKernel& k) {
  return k.traits().scale_invariant && scale_keeps_outputs(k.op());
}
std::string determinism_excluded(const RowwiseKernel& k) {
  return k.traits().deterministic ? "" : k.name() + " does not declare determinism";
}
std::string batch_excluded(const RowwiseKernel& k) {
  return claim_or_contract(k, k.traits().batch_invariant, "batch invariance");
}
std::string strided_excluded(const RowwiseKernel& k) {
  return k.traits().strided ? "" : k.name() + " does not declare strided rows";
}
std::string permutation_excluded(const RowwiseKernel& k) {
  return claim_or_contract(k, k.traits().order_independent, "order independence");
}
bool always_bitwise(const RowwiseKernel&) {
  return true;
}
bool batch_bitwise(const RowwiseKernel& k) {
  return k.traits().batch_invariant;
}
bool permutation_bitwise(const RowwiseKernel& k) {
  return k.traits().order_independent && !selects(k.op());  // indices move with the columns
}

}  // namespace

std::string RowwiseAccuracy::describe() const {
  if (!declared) return "none declared";
  return digits9(ulps) + " ulp + (" + digits9(cond_rel) + " + " + digits9(cond_rel_per_element) +
         " n) cond" + (derivation.empty() ? "" : ", derived in " + derivation);
}

const std::vector<RowwiseLaw>& rowwise_laws() {
  static const std::vector<RowwiseLaw> laws = laws_named<RowwiseLaw>(
      {
          {"accuracy",
           "every output of every row (a batch reduction's one value) is within the accuracy "
           "contract of the exact value (NaN where it is NaN, its infinity where it rounds to "
           "one)",
           check_accuracy, nothing_excluded},
          {"empty_rows",
           "a fully masked row (every y_j 0, every z_j or x_j -inf; a cross-entropy target "
           "ignore_index) gives the exact value's rounding: dx 0 for softmax backward, dy for "
           "log-softmax backward, lse -inf, loss 0; a batch reduction's batch of ignored rows "
           "and its batch of no rows give the declared convention (sum 0, mean NaN or 0)",
           check_empty_rows, empty_rows_excluded},
          {"special_values",
           "a row holding NaN or an infinity gives NaN where the exact value is NaN and the "
           "infinity it rounds to (rms_norm: under its declared inf_row), its finite outputs "
           "within the contract; a batch reduction's value likewise",
           check_special_values, nothing_excluded},
          {"determinism", "two launches of the same batch give the same bits", check_determinism,
           determinism_excluded, false, always_bitwise},
          {"batch_invariance",
           "a row gives the same outputs alone and at any position of a batch; a batch "
           "reduction, the same value with its rows reordered (bits where declared, else both "
           "within the contract)",
           check_batch_invariance, batch_excluded, false, batch_bitwise},
          {"strided", "padded rows (row strides > N) give the bits of dense ones", check_strided,
           strided_excluded, false, always_bitwise},
          {"permutation",
           "permuting a row's columns in every input permutes its outputs; a batch reduction's "
           "value is unchanged by permuting every row's (bits where declared, else both within "
           "the contract)",
           check_permutation, permutation_excluded, false, permutation_bitwise},
          {"shift_invariance",
           "x + c (every sum exact) gives a result within the contract, as x does: logsumexp's "
           "and the mean moved by c, layer_norm's, the variance and cross-entropy's unchanged",
           check_shift_invariance, shift_excluded, false, never_bitwise},
          {"scale_invariance",
           "x 2^k with eps = 0 gives the norms' and argmax's outputs of x, topk's values times 2^k "
           "(bits where declared, else both within the contract or exact)",
           check_scale_invariance, scale_excluded, false, scale_bitwise},
      },
      kRowwiseLawNames, "rowwise_laws()");
  return laws;
}

}  // namespace osvs
