// The accuracy measure of an attention kernel (docs/semantics.md §9): every o component and lse of
// a row with a kept key (or a sink) against the exact attention, its error in ulps of its
// magnitude and the declared contract at that element. The `accuracy` law (attention_laws.cpp)
// judges with it and the audit's per-kernel section (audit/attention_kernels_audit.h) measures
// with it: one definition of the error, the unit and the allowance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "osvs/api/attention_laws.h"

namespace osvs {

/// The spacing of type t's values at magnitude x (its subnormal spacing below its normals, and
/// at x = 0): the unit of the accuracy contract.
double ulp_in(DType t, double x);

/// One output element of a row the accuracy law judges.
struct AttentionElementError {
  bool is_lse = false;        ///< the row's lse, else o component `component`
  std::size_t row = 0;        ///< token * heads_q + head
  std::size_t component = 0;  ///< of o (0 for the lse)
  float got = 0;              ///< the kernel's value (its lse in the case's base)
  float exact_rounded = 0;    ///< the exact value correctly rounded (o: the in type; lse: f32)
  double exact = 0;           ///< the exact value as a double
  double magnitude = 0;       ///< o: M_c = sum_j p_j |v_jc|; lse: max(|lse|, 1)
  double unit = 0;            ///< ulp_T(M_c), or ulp_f32(max(|lse|, 1)): what "ulps" counts
  double error = 0;           ///< |got - exact| (NaN when got is NaN)
  double allowed = 0;         ///< the declared contract at this element, absolute
  std::int64_t kept = 0;      ///< the row's kept keys (n)
  double score = 0;           ///< the row's score magnitude S

  /// The error in ulps of the magnitude; +inf for a NaN (never within any contract).
  double ulps() const;
  /// error / allowed: <= 1 within the contract; +inf for a NaN or any error where 0 is allowed.
  double tightness() const;
  bool within() const { return error <= allowed; }  // false for a NaN
};

/// Every element of k's outputs `out` for case c that the accuracy law judges, o components
/// row by row and then (when k writes one) the row's lse; `exact` is exact_attention(c,
/// c.in_type). Rows with no kept key and no sink are left out (the empty_rows law's). out's lse
/// must read an empty row as -inf whatever k declares (they are left out anyway).
std::vector<AttentionElementError> attention_errors(const AttentionKernel& k,
                                                    const AttentionCase& c,
                                                    const AttentionOutputs& out,
                                                    const AttentionExact& exact);

/// "o[token 3][head 1][2]" / "lse[token 3][head 1]": where an element of a case is.
std::string attention_element_name(const AttentionElementError& e, int heads_q);

}  // namespace osvs
