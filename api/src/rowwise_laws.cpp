// The row-wise laws (osvs/api/rowwise_laws.h). Each runs the kernel through the runner (which
// fails a kernel that misuses memory) and judges its outputs against the oracle
// (rowwise_ops.h) under the declared contract, or two runs' outputs against each other.
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

/// cross_entropy's parameters and the row's target, as a judgement prints them ("" otherwise).
std::string params_text(const RowwiseKernel& k, const RowInputs& in, const RowwiseParams& p) {
  if (k.op() != RowwiseOp::CrossEntropy) return "";
  return ", target " + std::to_string(static_cast<std::int64_t>(in[1][0])) + ", ignore_index " +
         std::to_string(p.ignore_index) + ", label_smoothing " + readable(p.label_smoothing);
}

/// The judgement of some rows of a launch's outputs.
struct RowsJudged {
  Verdict verdict;
  int judged = 0;  ///< elements judged
};

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
    const auto exact = rowwise_exact(k.op(), in, out.cols, params, k.out_types());
    for (std::size_t b = 0; b < sig.outputs.size(); ++b) {
      const std::vector<double> cond = rowwise_condition(k.op(), b, in, out.cols, params);
      const DType t = k.out_types()[b];
      for (std::int64_t j = 0; j < out.widths[b]; ++j) {
        const float y = out.row(b, row)[j];
        const oracle::ExactElement& e = exact[b][static_cast<std::size_t>(j)];
        const double c = cond[static_cast<std::size_t>(j)];
        bool ok;
        double tol = 0;
        if (std::isnan(e.value)) {
          ok = std::isnan(y);
        } else if (std::isinf(e.rounded)) {
          ok = y == e.rounded;
        } else if (held == Held::ToRounding) {
          ok = y == e.rounded;
        } else if (a.declared) {
          tol = tolerance(a, t, e, c, out.cols);
          ok = std::isfinite(y) && std::fabs(static_cast<double>(y) - e.value) <= tol;
        } else {
          continue;  // no contract: a finite output is not judged
        }
        ++r.judged;
        if (ok) continue;
        const bool per_row = sig.outputs[b].extent == Extent::Row;  // one value a row (lse)
        const std::string element =
            sig.outputs[b].name + (per_row ? "" : "[" + std::to_string(j) + "]");
        std::string inputs_text;
        for (std::size_t i = 0; i < sig.inputs.size() && !per_row; ++i)
          inputs_text += (i ? ", " : "") + sig.inputs[i].name + "[" + std::to_string(j) +
                         "] = " + readable(in[i][j]);
        if (per_row) inputs_text = "the row";
        std::string why = context + "row " + std::to_string(row) + ": " + element + " = " +
                          readable(y) + " for " + inputs_text +
                          " (n = " + std::to_string(out.cols) +
                          (uses_eps(k.op()) ? ", eps " + readable(params.eps) : "") +
                          params_text(k, in, params) + "): exact " + readable(e.value);
        if (tol > 0)
          why += ", error " + digits9(std::fabs(static_cast<double>(y) - e.value)) +
                 " > tolerance " + digits9(tol) + " (" + a.describe() + ", cond " + digits9(c) +
                 ")";
        else if (held == Held::ToRounding && std::isfinite(e.value))
          why += ", which rounds to " + readable(e.rounded) + " in " + to_string(t);
        add_finding(findings, {how_it_failed(y, e, held), why});
        if (evidence.empty())
          evidence.push_back(
              {element, y, e.value, std::fabs(static_cast<double>(y) - e.value), tol});
      }
    }
  }
  if (!findings.empty()) {
    const std::string first = findings.front().explanation;
    r.verdict = Verdict::fail(first, std::move(evidence), std::move(findings));
  }
  return r;
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
  const RowsJudged r = judge_rows(k, c.inputs, c, out, every_row(c), Held::ToContract, "");
  if (r.verdict.fails()) return r.verdict;
  if (!judgeable(k)) return not_judged("no accuracy contract declared");
  if (r.judged == 0) return not_judged("no row within the forward's range (in_forward_range)");
  return r.verdict;
}

Verdict check_empty_rows(const RowwiseKernel& k, const RowwiseCase& c) {
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
  const RowsJudged r = judge_rows(k, c.inputs, c, out, special, Held::ToContract, "special ");
  if (r.judged == 0) return not_judged("no output with a NaN or infinite exact value");
  return r.verdict;
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// The first element where two launches' rows differ in their bits, or "" (`what` names them).
std::string first_difference(const RowwiseKernel& k, const RowwiseOutputs& x, std::int64_t rx,
                             const RowwiseOutputs& y, std::int64_t ry,
                             const std::vector<std::int64_t>& perm, const std::string& what) {
  const RowwiseSignature& sig = signature(k.op());
  for (std::size_t b = 0; b < sig.outputs.size(); ++b)
    for (std::int64_t j = 0; j < x.widths[b]; ++j) {
      // a reduced value (or topk's k): not permuted with the columns
      const bool per_row = sig.outputs[b].extent != Extent::Element;
      const std::int64_t jy = perm.empty() || per_row ? j : perm[static_cast<std::size_t>(j)];
      const float u = x.row(b, rx)[j], v = y.row(b, ry)[jy];
      if (same_bits(u, v)) continue;
      return what + ": " + sig.outputs[b].name + (per_row ? "" : "[" + std::to_string(j) + "]") +
             " = " + readable(u) + " but " + readable(v);
    }
  return "";
}

Verdict check_determinism(const RowwiseKernel& k, const RowwiseCase& c) {
  const RowwiseOutputs a = run_rowwise_kernel(k, c.inputs, c),
                       b = run_rowwise_kernel(k, c.inputs, c);
  for (std::int64_t r = 0; r < c.rows(); ++r)
    if (const std::string d = first_difference(
            k, a, r, b, r, {}, "row " + std::to_string(r) + ", first and second launch");
        !d.empty())
      return Verdict::fail(d);
  return Verdict::pass();
}

/// The subject row (row 0 of every input; a shared array whole) alone.
std::vector<Rows> subject_alone(const RowwiseCase& c) {
  std::vector<Rows> alone;
  for (const Rows& a : c.inputs) alone.push_back({a[0]});
  return alone;
}

/// The subject alone with x (input 0) changed by f, or nothing where a changed value is not
/// exact in x's type (a sum rounded, a scaled value overflowed or underflowed).
template <class F>
std::optional<std::vector<Rows>> subject_with_x(const RowwiseKernel& k, const RowwiseCase& c, F f) {
  std::vector<Rows> alone = subject_alone(c);
  for (float& v : alone[0][0]) {
    const double exact = f(static_cast<double>(v));
    const float changed = round_to(k.in_types()[0], static_cast<float>(exact));
    if (std::isfinite(v) && changed != exact) return std::nullopt;
    v = std::isfinite(v) ? changed : v;
  }
  return alone;
}

/// Bits where k declares them, else both launches within the contract: the verdict of an
/// invariance between the subject alone (`alone`, row 0) and the other launch (row r of `other`,
/// of inputs `other_inputs`, its columns permuted by `perm`).
Verdict invariance(const RowwiseKernel& k, bool bitwise, const RowwiseCase& c,
                   const RowwiseOutputs& alone, const std::vector<Rows>& other_inputs,
                   const RowwiseOutputs& other, std::int64_t r,
                   const std::vector<std::int64_t>& perm, const std::string& what) {
  if (bitwise) {
    const std::string d = first_difference(k, alone, 0, other, r, perm, what);
    return d.empty() ? Verdict::pass() : Verdict::fail(d);
  }
  const RowsJudged x = judge_rows(k, subject_alone(c), c, alone, {0}, Held::ToContract, "alone: ");
  if (x.verdict.fails()) return x.verdict;
  return judge_rows(k, other_inputs, c, other, {r}, Held::ToContract, what + ": ").verdict;
}

Verdict check_batch_invariance(const RowwiseKernel& k, const RowwiseCase& c) {
  if (c.rows() < 2) return not_judged("a batch of one row");
  std::vector<Rows> batch = c.inputs;  // the subject moved from row 0 to batch_position
  const auto p = static_cast<std::size_t>(c.batch_position % c.rows());
  for (std::size_t a = 0; a < batch.size(); ++a)
    if (!shared(k, a))
      std::rotate(batch[a].begin(), batch[a].begin() + 1,
                  batch[a].begin() + 1 + static_cast<std::ptrdiff_t>(p));
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject_alone(c), c);
  const RowwiseOutputs in_batch = run_rowwise_kernel(k, batch, c);
  return invariance(
      k, k.traits().batch_invariant, c, alone, batch, in_batch, static_cast<std::int64_t>(p), {},
      "the row alone vs at row " + std::to_string(p) + " of " + std::to_string(c.rows()));
}

Verdict check_strided(const RowwiseKernel& k, const RowwiseCase& c) {
  bool padded = false;
  for (std::int64_t pad : c.pads) padded = padded || pad > 0;
  if (!padded) return not_judged("no array is padded");
  const RowwiseOutputs dense = run_rowwise_kernel(k, c.inputs, c);
  const RowwiseOutputs strided = run_rowwise_kernel(k, c.inputs, c, c.pads);
  std::string pads;
  for (std::int64_t pad : c.pads) pads += (pads.empty() ? "" : "/") + std::to_string(pad);
  for (std::int64_t r = 0; r < c.rows(); ++r)
    if (const std::string d = first_difference(
            k, dense, r, strided, r, {},
            "row " + std::to_string(r) + ", dense vs padded by " + pads + " elements a row");
        !d.empty())
      return Verdict::fail(d);
  return Verdict::pass();
}

Verdict check_permutation(const RowwiseKernel& k, const RowwiseCase& c) {
  const auto n = static_cast<std::size_t>(c.cols());
  if (c.permutation.size() != n) return not_judged("no permutation of the row's columns");
  if (k.op() == RowwiseOp::CrossEntropy && c.ignore_index >= 0 &&
      c.ignore_index < static_cast<std::int64_t>(n))
    return not_judged("ignore_index names a column: a permuted target could become it");
  // out_permuted[j] must be out[perm[j]]: compare out[perm[j]] with out_permuted[j] through the
  // inverse, so that first_difference reads the alone launch in order.
  std::vector<std::int64_t> inverse(n);
  for (std::size_t j = 0; j < n; ++j)
    inverse[static_cast<std::size_t>(c.permutation[j])] = static_cast<std::int64_t>(j);
  std::vector<Rows> permuted = subject_alone(c);
  for (std::size_t a = 0; a < permuted.size(); ++a) {
    std::vector<float>& row = permuted[a][0];
    if (signature(k.op()).inputs[a].index) {  // a column index: where its column went
      for (float& t : row)
        if (t >= 0 && t < static_cast<float>(n))
          t = static_cast<float>(inverse[static_cast<std::size_t>(t)]);
      continue;
    }
    std::vector<float> moved(n);
    for (std::size_t j = 0; j < n; ++j) moved[j] = row[static_cast<std::size_t>(c.permutation[j])];
    row = std::move(moved);
  }
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject_alone(c), c);
  const RowwiseOutputs other = run_rowwise_kernel(k, permuted, c);
  return invariance(k, permutation_bitwise(k), c, alone, permuted, other, 0, inverse,
                    "the row vs its columns permuted");
}

Verdict check_shift_invariance(const RowwiseKernel& k, const RowwiseCase& c) {
  if (c.shift == 0) return not_judged("no shift");
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject_alone(c), c);
  const auto shifted = subject_with_x(k, c, [&](double v) { return v + c.shift; });
  if (!shifted) return not_judged("x + c is not exact in x's type");
  const RowwiseOutputs other = run_rowwise_kernel(k, *shifted, c);
  // logsumexp's result moves with the shift, layer_norm's rounds its mean otherwise: no bits to
  // compare, both launches within the contract.
  return invariance(k, false, c, alone, *shifted, other, 0, {},
                    "the row vs x + " + readable(c.shift));
}

Verdict check_scale_invariance(const RowwiseKernel& k, const RowwiseCase& c) {
  if (c.scale_exponent == 0) return not_judged("no scale");
  if (c.eps != 0) return not_judged("eps != 0: the exact result changes with the scale");
  const RowwiseOutputs alone = run_rowwise_kernel(k, subject_alone(c), c);
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
std::string scale_excluded(const RowwiseKernel& k) {
  if (!scale_invariant(k.op()))
    return std::string(to_string(k.op())) + " is not invariant under a scaling of x";
  return k.traits().scale_invariant || judgeable(k)
             ? ""
             : k.name() + " declares neither scale invariance nor an accuracy contract";
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
  return k.traits().batch_invariant || judgeable(k)
             ? ""
             : k.name() + " declares neither batch invariance nor an accuracy contract";
}
std::string strided_excluded(const RowwiseKernel& k) {
  return k.traits().strided ? "" : k.name() + " does not declare strided rows";
}
std::string permutation_excluded(const RowwiseKernel& k) {
  return k.traits().order_independent || judgeable(k)
             ? ""
             : k.name() + " declares neither order independence nor an accuracy contract";
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
           "every output of every row is within the accuracy contract of the exact value "
           "(NaN where it is NaN, its infinity where it rounds to one)",
           check_accuracy, nothing_excluded},
          {"empty_rows",
           "a fully masked row (every y_j 0, every z_j or x_j -inf; a cross-entropy target "
           "ignore_index) gives the exact value's rounding: dx 0 for softmax backward, dy for "
           "log-softmax backward, lse -inf, loss 0",
           check_empty_rows, empty_rows_excluded},
          {"special_values",
           "a row holding NaN or an infinity gives NaN where the exact value is NaN and the "
           "infinity it rounds to, its finite outputs within the contract",
           check_special_values, nothing_excluded},
          {"determinism", "two launches of the same batch give the same bits", check_determinism,
           determinism_excluded, false, always_bitwise},
          {"batch_invariance",
           "a row gives the same outputs alone and at any position of a batch (bits where "
           "declared, else both within the contract)",
           check_batch_invariance, batch_excluded, false, batch_bitwise},
          {"strided", "padded rows (row strides > N) give the bits of dense ones", check_strided,
           strided_excluded, false, always_bitwise},
          {"permutation",
           "permuting a row's columns in every input permutes its outputs (bits where declared, "
           "else both within the contract)",
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
