// Shared judgements of the attention laws: bitwise comparison of partial states, and a computed
// state against the exact one within a derived bound, with the evidence a verdict carries.
#pragma once

#include <string>
#include <vector>

#include "osvs/kernels/attention/attention_cases.h"
#include "osvs/kernels/attention/value_conventions.h"
#include "osvs/oracle/attention_bounds.h"
#include "osvs/oracle/attention_reference.h"
#include "osvs/properties/verdict.h"

namespace osvs::attention_judge {

/// Collects the outcome of many element checks: the first failures' evidence and explanation,
/// judged under the conventions the kernel declares.
class Findings {
 public:
  explicit Findings(ValueConventions c = {}) : conventions_(c) {}
  const ValueConventions& conventions() const { return conventions_; }
  /// A failure: `why` explains it, `kind` classes it (which part failed how, e.g. "lse: not
  /// NaN"); the verdict keeps the first explanation of every kind (Verdict::findings).
  void fail(const std::string& why, Evidence e, const std::string& kind = "");
  bool failed() const { return !why_.empty(); }
  /// Records a bounded comparison that held: the verdict's evidence "worst error / bound" keeps
  /// the largest ratio (observed = error, bound = bound, ulp_error = the ratio).
  void held(double error, double bound);
  Verdict verdict(const std::string& law) const;

 private:
  std::string why_;
  std::vector<Evidence> evidence_;
  std::vector<Finding> findings_;
  double worst_ratio_ = 0;
  Evidence worst_;
  ValueConventions conventions_;
};

/// got stands for `expected` under c: the same bits, or both NaN (any_nan_bits), or both zero
/// (either_zero_sign).
bool same_value(float got, float expected, const ValueConventions& c);

/// got is the canonical NaN, or any NaN under any_nan_bits.
bool is_the_nan(float got, const ValueConventions& c);

/// Row `row` of x and y have the same bits (lse and every o component), under f's conventions
/// (the o of an empty expected row is not compared where it is unspecified).
void expect_bitwise_row(const AttnStates& x, std::int64_t row_x, const AttnStates& y,
                        std::int64_t row_y, const std::string& what, Findings& f);

/// Every row of x and y has the same bits.
void expect_bitwise(const AttnStates& x, const AttnStates& y, const std::string& what, Findings& f);

/// Row `row` is the documented empty result: lse = -inf, every o component +0 (any zero under
/// either_zero_sign; not read under empty_o_unspecified).
void expect_empty_row(const AttnStates& x, std::int64_t row, const std::string& what, Findings& f);

/// Row `row` is the canonical NaN row: lse and every o component the canonical NaN (any NaN under
/// any_nan_bits).
/// `input_class` names the special input the row carries ("NaN lse"): it leads the failures' kind.
void expect_nan_row(const AttnStates& x, std::int64_t row, const std::string& what, Findings& f,
                    const std::string& input_class = "");

/// The kind of a failed bitwise comparison of got with expected: "NaN bits" (both NaN), "zero
/// sign" (both zero), "NaN instead of a value", "a value instead of NaN" or "other bits".
std::string bitwise_kind(float got, float expected);

/// Row `row` of x against an exact (lse, o) within `bound`.
void expect_within(const AttnStates& x, std::int64_t row, double lse, const std::vector<double>& o,
                   const std::vector<double>& magnitude, const oracle::AttnBound& bound,
                   const std::string& what, Findings& f);

/// The exact attention of query row `row` of p over keys [begin, end).
oracle::AttentionReference reference_of(const DecodeProblem& p, std::int64_t row,
                                        std::int64_t begin, std::int64_t end);

/// A one-line summary of a decode problem for explanations.
std::string describe(const DecodeProblem& p, const SplitPlan& plan);

}  // namespace osvs::attention_judge
