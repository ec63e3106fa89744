// The values an attention law is judged on (osvs/api/kind.h's K::Case of the attention kind): a
// batch of sequences with their own query and key lengths, q / k / v as floats exactly
// representable in the input type (logical, contiguous layout; the runner pages them), the mask,
// the scale, and how K/V are paged. docs/semantics.md §9.
#pragma once

#include <cstdint>
#include <vector>

#include "osvs/api/attention_kernel.h"

namespace osvs {

struct AttentionSequence {
  std::int64_t q_len = 1;
  std::int64_t k_len = 1;
  bool operator==(const AttentionSequence& o) const { return q_len == o.q_len && k_len == o.k_len; }
};

/// The ALiBi slopes generated cases draw (one a query head): ALiBi's own 2^(-8h/H) for H = 8 and
/// 16, and slopes with every bit of a float set, whose biases round.
inline const std::vector<float> kAlibiSlopes{1.0f,    0.5f,           0.25f, 0x1p-4f,
                                             0x1p-8f, 0x1.6a09e6p-1f, 0.3f};

struct AttentionCase {
  std::vector<AttentionSequence> seqs{AttentionSequence{}};
  int heads_q = 1;
  int heads_kv = 1;
  int head_dim_qk = 1;
  int head_dim_v = 1;
  DType in_type = DType::F32;
  float scale = 1;
  float softcap = 0;         ///< > 0: scores softcap * tanh(score / softcap)
  std::vector<float> sinks;  ///< one logit a query head, or empty: no sinks
  /// One ALiBi slope a query head, or empty: no bias (key_kept's alignment, alibi_distance).
  std::vector<float> alibi_slopes;
  AttentionMask mask;
  LseBase base = LseBase::E;
  /// 0: contiguous K/V. Otherwise the size of a page, and page_order[p] the physical page of
  /// the batch's logical page p (sequence after sequence, each from a fresh page); physical
  /// pages no logical page uses (spare) are there too, and hold poison.
  int page_size = 0;
  std::vector<std::int64_t> page_order;
  /// The split parameter the launch asks for (AttentionProblem::kv_splits; 0: the kernel's own
  /// choice, the only value for a kernel that declares no kv_splits).
  int kv_splits = 0;
  /// q [total_q, heads_q, head_dim_qk]; k [total_k, heads_kv, head_dim_qk]; v [total_k,
  /// heads_kv, head_dim_v] (logical: sequence after sequence).
  std::vector<float> q, k, v;
  /// For a backward kernel: the gradient of o, [total_q, heads_q, head_dim_v] (like o); empty
  /// for a forward kernel (fit_to gives a backward kernel's case without one a fixed one).
  std::vector<float> dout;

  std::int64_t total_q() const;
  std::int64_t total_k() const;
  /// The first query / key token of sequence s.
  std::int64_t q_start(std::size_t s) const;
  std::int64_t k_start(std::size_t s) const;
  /// Pages sequence s spans (0 when contiguous).
  std::int64_t pages_of(std::size_t s) const;
  /// Logical pages of the batch (sum of pages_of) and physical ones (page_order's size).
  std::int64_t logical_pages() const;
};

/// Why c is not a well-formed case (sizes that disagree, heads_kv not dividing heads_q, a page
/// order that is not a permutation covering the logical pages, values not exact in in_type),
/// or "".
std::string attention_case_problem(const AttentionCase& c);

/// The kernel's outputs, read back as floats: o [total_q, heads_q, head_dim_v] and, when it
/// writes one, lse [total_q * heads_q] in (token, head) order, in the case's base. A backward
/// kernel's instead: dq like q, dk like k, dv like v, when it writes it, delta [total_q *
/// heads_q] in (token, head) order, and, for a case with sinks, dsinks [heads_q] (o and lse stay
/// empty).
struct AttentionOutputs {
  std::vector<float> o;
  std::vector<float> lse;
  std::vector<float> dq, dk, dv, delta, dsinks;
};

}  // namespace osvs
