// The black-box laws. Each runs the kernel through the runner (which already fails a kernel
// that misuses memory or the runtime) and judges its outputs against the exact values and the
// kernel's declarations (row_kernel.h).
#include "osvs/api/row_laws.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "contract.h"
#include "exact_outputs.h"
#include "large_batch_law.h"
#include "osvs/api/kind.h"
#include "osvs/api/law_names.h"
#include "osvs/api/row_judge.h"

namespace osvs {
namespace {

constexpr const char* kNotJudged = "not judged: ";

using api::hex;

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

Verdict judge_row(const RowKernel& k, const float* x, std::int64_t n, const float* y,
                  const std::string& where) {
  return api::judge_row(k, x, n, y, where).verdict;
}

Verdict check_accuracy(const RowKernel& k, const RowCase& c) {
  const RowOutputs out = run_row_kernel(k, c.rows, c.layout);
  Verdict all, first_failure;
  bool judged = false;
  for (std::int64_t i = 0; i < out.rows; ++i) {
    const auto& row = c.rows[static_cast<std::size_t>(i)];
    Verdict v = judge_row(k, row.data(), out.cols, out.row(i), "row " + std::to_string(i));
    if (v.fails()) {  // the first row's failure, with every row's classes of failure
      if (!first_failure.fails()) first_failure = v;
      for (const Finding& f : v.findings) add_finding(first_failure.findings, f);
      continue;
    }
    if (!v.holds()) return v;
    if (is_not_judged(v)) continue;
    judged = true;
    all.evidence.insert(all.evidence.end(), v.evidence.begin(), v.evidence.end());
  }
  if (first_failure.fails()) return first_failure;
  if (!judged && !k.accuracy().declared()) return not_judged("no accuracy contract declared");
  return all;
}

Verdict check_sum_to_one(const RowKernel& k, const RowCase& c) {
  if (k.op() != RowOp::Softmax) return not_judged("log-softmax outputs do not sum to one");
  const RowOutputs out = run_row_kernel(k, c.rows, c.layout);
  bool judged = false;
  for (std::int64_t i = 0; i < out.rows; ++i) {
    const float* x = c.rows[static_cast<std::size_t>(i)].data();
    const auto exact = api::exact_outputs(k.op(), x, out.cols);
    // Only a finite row has outputs that sum to one (an empty row none; special rows follow
    // their conventions, the accuracy law's); a derived contract has no bound for the others.
    if (exact.kind != oracle::RowKind::Finite) continue;
    const auto tol = api::tolerance_ulps(k, x, out.cols);
    if (!tol) return not_judged("no accuracy contract declared");
    judged = true;
    // |sum y_hat - 1| <= sum_j |y_hat_j - y_j| <= sum_j tol_j ulp(y_j); the double sum of n
    // floats adds at most (n - 1) 2^-53 sum |y_hat| (Higham, ASNA (4.4)).
    double sum = 0, allowed = 0, mass = 0;
    for (std::int64_t j = 0; j < out.cols; ++j) {
      sum += out.row(i)[j];
      mass += std::fabs(out.row(i)[j]);
      allowed += (*tol)[static_cast<std::size_t>(j)] *
                 api::ulp_in(k.out_type(), exact.value[static_cast<std::size_t>(j)],
                             exact.binade[static_cast<std::size_t>(j)]);
    }
    if (std::isfinite(mass)) allowed += static_cast<double>(out.cols) * 0x1p-53 * mass;
    if (!(std::fabs(sum - 1) <= allowed))
      return Verdict::fail("row " + std::to_string(i) + ": outputs sum to " + api::readable(sum) +
                               ", |sum - 1| = " + api::digits9(std::fabs(sum - 1)) + " > " +
                               api::digits9(allowed) + " (the contract summed over the row)",
                           {{"sum", sum, 1.0, std::fabs(sum - 1), allowed}});
  }
  if (!judged) return not_judged("no finite row of at least one element to sum");
  return Verdict::pass();
}

/// Two runs' outputs of the same real row compared: bitwise when the kernel declares the law
/// exact, else each within the contract of the exact values (judge_row on both).
Verdict compare_runs(const RowKernel& k, bool bitwise, const float* x_a, const float* y_a,
                     const float* x_b, const float* y_b, std::int64_t n,
                     const std::vector<std::int64_t>& b_of_a, const std::string& what) {
  if (bitwise) {
    for (std::int64_t j = 0; j < n; ++j) {
      const float a = y_a[j], b = y_b[b_of_a[static_cast<std::size_t>(j)]];
      if (!same_bits(a, b))
        return Verdict::fail(what + ": y[" + std::to_string(j) + "] = " + hex(a) + " vs " + hex(b) +
                                 " (declared bit for bit)",
                             {{"y[" + std::to_string(j) + "]", a, b, INFINITY, 0}});
    }
    return Verdict::pass();
  }
  if (!k.accuracy().declared())
    return not_judged("the law is not declared exact and no accuracy contract is declared");
  Verdict va = judge_row(k, x_a, n, y_a, what + ", first run");
  if (!va.holds()) return va;
  return judge_row(k, x_b, n, y_b, what + ", second run");
}

std::vector<std::int64_t> identity_map(std::int64_t n) {
  std::vector<std::int64_t> m(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) m[static_cast<std::size_t>(j)] = j;
  return m;
}

Verdict check_permutation(const RowKernel& k, const RowCase& c) {
  const auto& x = c.rows.at(0);
  const auto n = static_cast<std::int64_t>(x.size());
  if (static_cast<std::int64_t>(c.permutation.size()) != n)
    throw std::invalid_argument("permutation has " + std::to_string(c.permutation.size()) +
                                " entries for a row of " + std::to_string(n));
  std::vector<float> px(x.size());
  for (std::int64_t j = 0; j < n; ++j)
    px[static_cast<std::size_t>(j)] = x[static_cast<std::size_t>(c.permutation[j])];
  const RowOutputs a = run_row_kernel(k, {x}, c.layout);
  const RowOutputs b = run_row_kernel(k, {px}, c.layout);
  // (P x)_j = x_perm[j]: output perm[j] of the first run is output j of the second.
  std::vector<std::int64_t> b_of_a(x.size());
  for (std::int64_t j = 0; j < n; ++j) b_of_a[static_cast<std::size_t>(c.permutation[j])] = j;
  return compare_runs(k, k.traits().order_independent, x.data(), a.row(0), px.data(), b.row(0), n,
                      b_of_a, "x vs x permuted");
}

Verdict check_shift(const RowKernel& k, const RowCase& c) {
  const auto& x = c.rows.at(0);
  const auto n = static_cast<std::int64_t>(x.size());
  // The law is softmax(x + c) = softmax(x) for a real c (found by the fuzzer over the registry:
  // a NaN shift made every x_j + c a NaN of c's bits, "exact", and the outputs' NaN bits differ).
  if (!std::isfinite(c.shift)) return not_judged("the shift " + hex(c.shift) + " is not finite");
  std::vector<float> xs(x.size());
  for (std::int64_t j = 0; j < n; ++j) {
    // x_j + c exactly (TwoSum, Knuth TAOCP 4.2.2): s + e = x_j + c with s the double sum, so the
    // sum is a value of the input type iff e = 0 and s is one. Comparing the double sum alone
    // with its rounding is not enough: for |c| far above |x_j| the double sum is itself rounded
    // (found by the fuzzer over the registry: x_j = -800, c = -0x1.c5a22p+86 passed as exact).
    const double a = x[j], b = c.shift, sum = a + b, b_part = sum - a;
    const double err = (a - (sum - b_part)) + (b - b_part);
    xs[static_cast<std::size_t>(j)] = round_to(k.in_type(), static_cast<float>(sum));
    if (std::isfinite(sum) &&
        (err != 0 || static_cast<double>(xs[static_cast<std::size_t>(j)]) != sum))
      return not_judged("x[" + std::to_string(j) + "] + " + hex(c.shift) + " is not exact in " +
                        to_string(k.in_type()));
  }
  const RowOutputs a = run_row_kernel(k, {x}, c.layout);
  const RowOutputs b = run_row_kernel(k, {xs}, c.layout);
  return compare_runs(k, k.traits().exact_shift_invariant, x.data(), a.row(0), xs.data(), b.row(0),
                      n, identity_map(n), "x vs x + " + hex(c.shift));
}

Verdict check_batch_invariance(const RowKernel& k, const RowCase& c) {
  if (c.batch_rows < 1 || c.batch_position < 0 || c.batch_position >= c.batch_rows)
    throw std::invalid_argument("batch position outside the batch");
  const auto& x = c.rows.at(0);
  Rows batch;
  Rows others(c.rows.begin() + 1, c.rows.end());
  if (others.empty()) others.emplace_back(x.rbegin(), x.rend());
  for (std::int64_t i = 0; i < c.batch_rows; ++i)
    batch.push_back(i == c.batch_position ? x
                                          : others[static_cast<std::size_t>(i) % others.size()]);
  const RowOutputs alone = run_row_kernel(k, {x}, c.layout);
  const RowOutputs among = run_row_kernel(k, batch, c.layout);
  const auto n = static_cast<std::int64_t>(x.size());
  return compare_runs(k, k.traits().batch_invariant, x.data(), alone.row(0), x.data(),
                      among.row(c.batch_position), n, identity_map(n),
                      "alone vs at row " + std::to_string(c.batch_position) + " of " +
                          std::to_string(c.batch_rows));
}

Verdict check_determinism(const RowKernel& k, const RowCase& c) {
  if (!k.traits().deterministic) return not_judged("the kernel does not declare determinism");
  const RowOutputs a = run_row_kernel(k, c.rows, c.layout);
  const RowOutputs b = run_row_kernel(k, c.rows, c.layout);
  for (std::size_t e = 0; e < a.y.size(); ++e)
    if (!same_bits(a.y[e], b.y[e]))
      return Verdict::fail("launch 1 vs launch 2: element " + std::to_string(e) + " = " +
                           hex(a.y[e]) + " vs " + hex(b.y[e]));
  return Verdict::pass();
}

Verdict check_strided(const RowKernel& k, const RowCase& c) {
  if (!k.traits().strided) return not_judged("the kernel does not declare strided rows");
  if (c.layout.x_pad == 0 && c.layout.y_pad == 0) return not_judged("the case has no padding");
  const RowOutputs dense = run_row_kernel(k, c.rows, {});
  const RowOutputs padded = run_row_kernel(k, c.rows, c.layout);
  for (std::size_t e = 0; e < dense.y.size(); ++e)
    if (!same_bits(dense.y[e], padded.y[e]))
      return Verdict::fail("dense vs padded rows (x_pad " + std::to_string(c.layout.x_pad) +
                           ", y_pad " + std::to_string(c.layout.y_pad) + "): element " +
                           std::to_string(e) + " = " + hex(dense.y[e]) + " vs " + hex(padded.y[e]));
  return Verdict::pass();
}

std::string never(const RowKernel&) {
  return "";
}

std::string sum_excluded(const RowKernel& k) {
  if (k.op() != RowOp::Softmax) return "log-softmax outputs do not sum to one";
  if (!k.accuracy().declared()) return "no accuracy contract declared";
  return "";
}

std::string determinism_excluded(const RowKernel& k) {
  return k.traits().deterministic ? "" : "the kernel does not declare determinism";
}

std::string strided_excluded(const RowKernel& k) {
  return k.traits().strided ? "" : "the kernel does not declare strided rows";
}

/// A law judged bitwise when declared exact, else within the contract: without either there
/// is nothing to judge.
template <bool Traits::*Exact>
std::string needs_declaration(const RowKernel& k) {
  if (k.traits().*Exact || k.accuracy().declared()) return "";
  return "the law is not declared exact and no accuracy contract is declared";
}

/// An invariance that always asks for the same bits (determinism, strided rows).
bool asks_bits(const RowKernel&) {
  return true;
}

/// An invariance that asks for the same bits where the kernel declares it exact, else for the
/// contract (compare_runs).
template <bool Traits::*Exact>
bool bits_if(const RowKernel& k) {
  return k.traits().*Exact;
}

std::vector<RowLaw> make_laws() {
  return {
      {"accuracy",
       "every output within the declared contract of the exact value; special rows "
       "as the declared conventions say",
       &check_accuracy, &never},
      {"sum_to_one", "a softmax row sums to 1 within the contract summed over the row",
       &check_sum_to_one, &sum_excluded},
      {"determinism", "two launches give the same bits", &check_determinism, &determinism_excluded,
       false, &asks_bits},
      {"batch_invariance", "a row's outputs do not depend on M or its position",
       &check_batch_invariance, &needs_declaration<&Traits::batch_invariant>, false,
       &bits_if<&Traits::batch_invariant>},
      {"strided", "padded rows give the bits of dense rows", &check_strided, &strided_excluded,
       false, &asks_bits},
      {"permutation", "permuting a row permutes its outputs", &check_permutation,
       &needs_declaration<&Traits::order_independent>},
      {"shift_invariance", "x + c gives the outputs of x for a shift exact on the row",
       &check_shift, &needs_declaration<&Traits::exact_shift_invariant>},
      {"large_batch",
       "a batch of M * N >= 2^31 elements: the rows around element 2^31 and the last row within "
       "the contract (opt-in: " +
           std::string(api::kLargeLawsVariable) + "=1)",
       &api::check_large_batch, &api::large_batch_excluded, true},
  };
}

}  // namespace

void showValue(const RowCase& c, std::ostream& os) {
  os << c.rows.size() << " row(s) of " << (c.rows.empty() ? 0 : c.rows[0].size()) << ":";
  for (std::size_t i = 0; i < c.rows.size() && i < 4; ++i) {
    os << "\n  [";
    for (std::size_t j = 0; j < c.rows[i].size() && j < 16; ++j)
      os << (j ? ", " : "") << hex(c.rows[i][j]);
    os << (c.rows[i].size() > 16 ? ", ...]" : "]");
  }
  if (!c.permutation.empty()) os << "\n  permutation of " << c.permutation.size();
  if (c.shift != 0) os << "\n  shift " << hex(c.shift);
  if (c.batch_rows > 1) os << "\n  at row " << c.batch_position << " of " << c.batch_rows;
  if (c.layout.x_pad || c.layout.y_pad)
    os << "\n  padding x " << c.layout.x_pad << ", y " << c.layout.y_pad;
}

Verdict not_judged(const std::string& why) {
  return Verdict::not_run(kNotJudged + why);
}

bool is_not_judged(const Verdict& v) {
  return !v.judged();
}

const std::vector<RowLaw>& row_laws() {
  static const std::vector<RowLaw> laws = laws_named(make_laws(), kRowLawNames, "row_laws()");
  return laws;
}

const RowLaw* find_row_law(const std::string& name) {
  return find_named(row_laws(), name);
}

}  // namespace osvs
