// The laws of an AttentionKernel (docs/semantics.md §9; api/README.md lists them): accuracy
// within the declared contract against the exact attention, the declared result of rows that
// attend to no key, poison (what the mask or the sequence lengths leave out never reaches an
// output), GQA (sharing a kv head equals repeating it), determinism, and the laws across calls
// (batch, page layout, split, chunked prefill, prefill vs decode); and the fitting of generated
// cases to what the kernel declares.
#pragma once

#include <string>
#include <vector>

#include "osvs/api/attention_runner.h"
#include "osvs/api/kind_law.h"
#include "osvs/properties/verdict.h"

namespace osvs {

using AttentionLaw = KindLaw<AttentionKernel, AttentionCase>;

/// Every attention law, in law_names.h's order: accuracy, empty_rows, poison, gqa,
/// determinism, batch_invariance, page_layout, split_invariance, chunked_prefill,
/// prefill_decode.
const std::vector<AttentionLaw>& attention_laws();

/// c fitted to k: an in type k does not take becomes its first (every value rounded to it), a
/// mask it does not support none, a head_dim it does not take its nearest (values repeated or
/// cut), heads_kv it cannot share (no gqa) heads_q (kv heads repeated), pages of a size it does
/// not read its first page size (or contiguous K/V), a base it does not write its first, a split
/// parameter it does not take its own choice (0), and
/// sequences of different lengths (not varlen) the first one's lengths; fp8 K/V of a type it does
/// not declare are dequantised into the in type (k_scale k, v_scale v rounded to it), K/V in the
/// in type of a kernel that takes fp8 only quantised to its first kv type (saturated, scales 1);
/// a backward kernel's case without a dout gets a fixed one (1/4, -1/2, 3/4, -1, repeated).
AttentionCase fit_to(const AttentionKernel& k, AttentionCase c);

/// The exact attention of every (query token, head) of c: o correctly rounded to `out` and as a
/// double, its magnitude M_c, the lse (base c.base) rounded to f32 and as a double, and the
/// number of kept keys; in (token, head) order. A large case is judged on every core.
struct AttentionExact {
  std::vector<float> o_rounded;
  std::vector<double> o, magnitude;
  std::vector<float> lse_rounded;
  std::vector<double> lse;
  std::vector<std::int64_t> kept;
  /// Queries the fast path could not certify, decided by MPFR (oracle/attention_reference.h).
  std::int64_t mpfr_queries = 0;
};
AttentionExact exact_attention(const AttentionCase& c, DType out);

/// The exact gradients of c's attention for its dout (oracle/attention_backward_reference.h, one
/// call a sequence and kv head): dq like c.q, dk like c.k, dv like c.v, delta a (token, head),
/// and, with sinks, dsinks a query head (its rows' terms summed over the batch), each with its
/// magnitude; the kept keys of each (token, head) row, the rows that keep each (key token, kv
/// head) and, with sinks, the rows of each head that keep a key (sink_rows). Every value is
/// within error * its magnitude + 2^-1000 of the exact one; dsinks within dsinks_error * its
/// magnitude + sink_rows 2^-999. finite is false when an input the gradients read is not finite
/// (nothing else is then filled).
struct AttentionGradExact {
  bool finite = true;
  std::vector<double> dq, dq_magnitude, dk, dk_magnitude, dv, dv_magnitude;
  std::vector<double> delta, delta_magnitude;
  std::vector<double> dsinks, dsinks_magnitude;  ///< heads_q each with sinks, else empty
  std::vector<std::int64_t> kept, attended, sink_rows;
  double error = 0;
  double dsinks_error = 0;
  std::int64_t mpfr_groups = 0;  ///< (sequence, kv head) groups the MPFR path decided
};
AttentionGradExact exact_attention_backward(const AttentionCase& c);

}  // namespace osvs
