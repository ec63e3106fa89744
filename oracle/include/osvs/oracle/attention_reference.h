// The exact attention of one query, and the exact merge of partial results (docs/semantics.md §8).
//
// For a query q, keys k_j and values v_j (j unmasked), the exact scores are s_j = (q . k_j) scale
// (real arithmetic, no rounding; with a key scale, (q . k_j) scale k_scale), p_j = e^(s_j - m) /
// sum_i e^(s_i - m), and
//
//   lse = m + log(sum_j e^(s_j - m))    (base e; base 2: lse * log2(e), exactly)
//   o_c = sum_j p_j v_jc                 (every component c; with a value scale v_scale v_jc)
//
// attention_reference gives lse correctly rounded to float and as a double, each o_c correctly
// rounded to the output type (f32 / bf16 / fp16, round to nearest even, subnormals included) and
// as a double, and M_c = sum_j p_j |v_jc|, the scale in which the bounds measure o's errors
// (oracle/attention_bounds.h). Double-double arithmetic with a certified bound on each output
// (src/attention_fast.cpp) where that bound decides every rounding of the query, else MPFR with a
// Ziv loop (src/attention_reference.cpp); the error analyses are beside the code. Both give the
// same rounded outputs (they are correctly rounded); the doubles agree within their promises.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/dtype.h"

namespace osvs::oracle {

enum class AttnOutcome {
  Finite,     ///< at least one unmasked key, q and every unmasked k finite
  Empty,      ///< no unmasked key: lse = -inf, o = 0 (the documented empty result)
  NotFinite,  ///< a NaN or inf in q or an unmasked k: no exact attention (special-value laws)
};

/// One query: q (head_dim), k (kv_len x head_dim) and v (kv_len x v_dim, v_dim 0: head_dim),
/// masked (kv_len, or null: none masked). o has v's dimension.
struct AttentionQuery {
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  const std::uint8_t* masked = nullptr;
  std::int64_t kv_len = 0;
  int head_dim = 1;
  float scale = 1.0f;
  LseBase base = LseBase::E;
  DType out = DType::F32;
  int v_dim = 0;  ///< (the fields from here on are last: older positional initialisers stay valid)
  /// > 0: every score is softcap * tanh(score / softcap) (docs/semantics.md §9).
  float softcap = 0;
  /// An attention sink: a logit `sink` in the softmax's denominator with no value (o gets none
  /// of it; lse includes it). A query without a kept key then has o = 0 and lse = sink.
  bool has_sink = false;
  float sink = 0;
  /// ALiBi: score_j - alibi_slope |alibi_position - j| (after the softcap; 0: no bias). The
  /// position is the query's aligned diagonal (osvs/api's alibi_distance).
  float alibi_slope = 0;
  std::int64_t alibi_position = 0;
  /// Per-tensor scales of K/V stored in fp8 (docs/semantics.md §9, "fp8 K/V"): the keys and
  /// values attended to are k_scale k_jc and v_scale v_jc, exact products (a float times a float
  /// is exact in double); 1: k and v as they are. The score is then (q . k_j) scale k_scale and
  /// o_c = v_scale sum_j p_j v_jc, M_c = |v_scale| sum_j p_j |v_jc|, exactly.
  float k_scale = 1;
  float v_scale = 1;
  int o_dim() const { return v_dim > 0 ? v_dim : head_dim; }
};

struct AttentionReference {
  AttnOutcome outcome = AttnOutcome::Empty;
  std::int64_t unmasked = 0;      ///< unmasked keys
  float lse_rounded = 0;          ///< lse correctly rounded to float (-inf when Empty)
  double lse = 0;                 ///< lse, relative error below 2^-52
  std::vector<float> o_rounded;   ///< o_c correctly rounded to the output type
  std::vector<double> o;          ///< o_c, absolute error below 2^-52 M_c
  std::vector<double> magnitude;  ///< M_c = sum_j p_j |v_jc| (relative error below 2^-52)
  std::vector<bool> o_finite;     ///< false where an unmasked v_jc is NaN or inf
  bool mpfr = false;              ///< decided by the MPFR path (the fast path could not certify it)
};

/// The exact attention of one query. Throws std::runtime_error if the Ziv loop cannot decide a
/// rounding at its last precision (never observed; see the source).
AttentionReference attention_reference(const AttentionQuery& query);

/// The same by the MPFR path alone (its `mpfr` stays false: for the tests and the benchmark).
AttentionReference attention_reference_mpfr(const AttentionQuery& query);

struct MergeReference {
  AttnOutcome outcome = AttnOutcome::Empty;
  double lse = 0;                 ///< log_b sum_i b^lse_i
  std::vector<double> o;          ///< sum_i b^lse_i o_i / sum_i b^lse_i, per component
  std::vector<double> magnitude;  ///< sum_i b^lse_i |o_i| / sum_i b^lse_i
  std::vector<bool> o_finite;     ///< false where a non-empty partial's o_c is not finite
};

/// The exact merge of partials (lse_i, o_i) (lse in base b; -inf: an empty partial whose o is
/// ignored; NaN or +inf: NotFinite). Doubles within 2^-52 relative (of M_c for o).
MergeReference merge_reference(const std::vector<float>& lse,
                               const std::vector<std::vector<float>>& o, int head_dim,
                               LseBase base);

}  // namespace osvs::oracle
