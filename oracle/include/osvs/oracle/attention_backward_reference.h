// The exact gradients of attention (docs/semantics.md §9.4): for the queries of one kv head of
// one sequence (every query head of its group, every query token: `rows` rows r), with the upstream
// gradient dout_r of each o_r, in real arithmetic on the given floats,
//
//   s_rj  = scale (q_r . k_j), then w_rj = softcap tanh(s_rj / softcap) with a softcap, then
//           w_rj - slope_r |position_r - j| with ALiBi; P_rj = e^(w_rj) / (sum_{kept l} e^(w_rl)
//           + e^(z_r)), the sink's term e^(z_r) only where the row has a sink z_r (its head's)
//   dP_rj = dout_r . v_j                    delta_r = sum_c dout_rc o_rc = sum_j P_rj dP_rj
//   dS_rj = P_rj (dP_rj - delta_r) t_rj     t_rj = 1 - tanh^2(s_rj / softcap) (1 without one)
//   dq_rc = scale sum_j dS_rj k_jc          dk_jc = scale sum_r dS_rj q_rc
//   dv_jc = sum_r P_rj dout_rc
//   dsink_r = - P_sink,r delta_r,          P_sink,r = e^(z_r) / (the same denominator)
//
// sums over kept (r, j) only. dsink_r is row r's term of the gradient of its head's sink (the
// head's gradient sums its rows over every sequence: the caller's sum, docs/semantics.md §9.4).
// Each value comes with its magnitude, the same sum with every term replaced by its absolute value
// and the difference dP - delta by |dP|_rj + delta_mag_r:
//
//   |dP|_rj = sum_c |dout_rc v_jc|          delta_mag_r = sum_j P_rj |dP|_rj
//   S_rj    = P_rj (|dP|_rj + delta_mag_r) t_rj
//   dq_mag_rc = |scale| sum_j S_rj |k_jc|   dk_mag_jc = |scale| sum_r S_rj |q_rc|
//   dv_mag_jc = sum_r P_rj |dout_rc|      dsink_mag_r = P_sink,r delta_mag_r
//
// (the scale in which a kernel's roundings of those terms accrue, and which the contract of
// AttentionGradAccuracy measures in), and a certified bound: every value is within
// `error` * its magnitude + 2^-1000 of the exact one (error <= 2^-40; an MPFR evaluation in
// interval arithmetic decides a group the double path cannot bound so tightly). A row that keeps no
// key has dq = 0, delta = 0 and dsink = 0 (its o is 0, with a sink or not); a key that no row
// keeps has dk = dv = 0 (exactly, magnitude 0).
#pragma once

#include <cstdint>
#include <vector>

namespace osvs::oracle {

/// One kv head of one sequence: its query rows and its keys (row-major, dense).
struct AttentionBackwardGroup {
  std::int64_t rows = 0;
  std::int64_t kv_len = 0;
  int head_dim = 1;             ///< of q and k
  int v_dim = 1;                ///< of v, o and dout
  const float* q = nullptr;     ///< rows x head_dim
  const float* dout = nullptr;  ///< rows x v_dim
  const float* k = nullptr;     ///< kv_len x head_dim
  const float* v = nullptr;     ///< kv_len x v_dim
  /// rows x kv_len, nonzero where row r does not keep key j; null: every row keeps every key.
  const std::uint8_t* masked = nullptr;
  float scale = 1;
  float softcap = 0;  ///< > 0: scores softcapped
  /// ALiBi, per row (null: none): the bias of key j is -alibi_slope[r] |alibi_position[r] - j|.
  const float* alibi_slope = nullptr;
  const std::int64_t* alibi_position = nullptr;
  /// Attention sinks, per row (null: none): z_r, the logit of row r's head, one more term of the
  /// softmax's denominator with no value.
  const float* sink = nullptr;
};

struct AttentionBackwardReference {
  /// false when a q row that keeps a key, the k or v of a kept key, the dout of a row that
  /// keeps a key or a row's sink is NaN or infinite: there is no exact gradient, and nothing
  /// below is filled.
  bool finite = true;
  std::vector<double> dq, dq_magnitude;        ///< rows x head_dim
  std::vector<double> dk, dk_magnitude;        ///< kv_len x head_dim
  std::vector<double> dv, dv_magnitude;        ///< kv_len x v_dim
  std::vector<double> delta, delta_magnitude;  ///< rows
  std::vector<double> dsink, dsink_magnitude;  ///< rows (all 0 without sinks)
  std::vector<std::int64_t> kept;              ///< rows: keys row r keeps
  std::vector<std::int64_t> attended;          ///< kv_len: rows that keep key j
  /// Every value within error * its magnitude + 2^-1000 of the exact one.
  double error = 0;
  bool mpfr = false;  ///< decided by the MPFR path
};

/// The exact gradients of one group, on `workers` threads (the rows, then the keys, split among
/// them; the result does not depend on their number).
AttentionBackwardReference attention_backward_reference(const AttentionBackwardGroup& g,
                                                        int workers = 1);

/// The same by MPFR interval arithmetic alone (its `mpfr` stays false: for the tests).
AttentionBackwardReference attention_backward_reference_mpfr(const AttentionBackwardGroup& g);

}  // namespace osvs::oracle
