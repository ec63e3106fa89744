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

/// The output an element belongs to: a forward's o and lse, a backward's dq, dk, dv, delta and
/// dsinks.
enum class AttnOutput { O, Lse, Dq, Dk, Dv, Delta, Dsinks };

/// S of every (token, head) row of c (AttentionAccuracy): the largest scale sum_c |q_c k_jc|
/// (+ |b_j| with ALiBi; at least the softcap + the largest |b_j| with one) over its kept keys, and
/// at least z_h with a sink z_h (a backward's takes |z_h|), in double (each product exact, the sum
/// within 2^-44 relative: a bound's parameter, not a value judged).
std::vector<double> attention_score_magnitudes(const AttentionCase& c);

/// One output element of a row the accuracy law judges.
struct AttentionElementError {
  AttnOutput output = AttnOutput::O;
  /// token * heads_q + head (o, lse, dq, delta), key token * heads_kv + kv head (dk, dv), the
  /// query head (dsinks)
  std::size_t row = 0;
  std::size_t component = 0;  ///< of o, dq, dk or dv (0 for the lse, delta and dsinks)
  float got = 0;              ///< the kernel's value (its lse in the case's base)
  /// The exact value correctly rounded (o: the in type; lse: f32); a gradient's: the exact
  /// double rounded to float (its oracle bounds it, it does not round it correctly)
  float exact_rounded = 0;
  double exact = 0;  ///< the exact value as a double
  /// o: M_c = sum_j p_j |v_jc|; lse: max(|lse|, 1); a gradient: its magnitude M_X
  double magnitude = 0;
  double unit = 0;     ///< ulp_T(M_c), or ulp_f32(max(|lse|, 1)): what "ulps" counts
  double error = 0;    ///< |got - exact| (NaN when got is NaN)
  double allowed = 0;  ///< the declared contract at this element, absolute
  /// the row's kept keys (n); dk, dv: the rows that keep the key; dsinks: the head's rows that
  /// keep a key
  std::int64_t kept = 0;
  double score = 0;  ///< the row's score magnitude S

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

/// Every gradient element of a backward kernel's outputs `out` for case c that the accuracy law
/// judges (AttentionGradAccuracy's contract, plus the oracle's own error bound): dq and (when k
/// writes it) delta of the rows that keep a key, dk and dv of the keys a row keeps, dsinks of the
/// heads with a row that keeps a key (the others are the empty_rows law's); an output that `out`
/// leaves empty is not judged (a law that judges dsinks alone passes only them); `exact` is
/// exact_attention_backward(c), finite.
std::vector<AttentionElementError> attention_grad_errors(const AttentionKernel& k,
                                                         const AttentionCase& c,
                                                         const AttentionOutputs& out,
                                                         const AttentionGradExact& exact);

/// "o[token 3][head 1][2]" / "lse[token 3][head 1]" / "dk[token 2][kv head 0][1]" /
/// "dsinks[head 1]": where an element of case c is.
std::string attention_element_name(const AttentionElementError& e, const AttentionCase& c);
/// The same for element `component` of row `row` of output `what`.
std::string attention_element_name(AttnOutput what, std::size_t row, std::size_t component,
                                   const AttentionCase& c);

}  // namespace osvs
