// The attention laws across calls (docs/semantics.md §9, issue 31's deterministic inference): the
// same attention computed by other calls of the kernel — the batch reversed or a sequence alone
// (batch_invariance), the K/V in other pages (page_layout), other split parameters and larger
// batches (split_invariance), the queries in chunks against their growing KV prefix
// (chunked_prefill), the last query as a decode step (prefill_decode) — gives the bits of the one
// call, or, where the kernel declares that law not bitwise, every call is within its contract.
// Each derived call is a case of its own (a piece of each sequence of the given case), judged
// only where the kernel declares it; the rows the calls share are compared.
#include <algorithm>
#include <cstring>
#include <tuple>

#include "attention_derived_calls.h"
#include "attention_law_parts.h"
#include "osvs/api/attention_accuracy.h"
#include "osvs/kernels/hex.h"

namespace osvs::attention_across_calls {
namespace {

using namespace attention_law_parts;
using namespace attention_derived_calls;

/// An invariance law's verdict on two runs of the same attention in other forms: the bits of
/// the rows `a` and `b` share (rows_of_b[i]: b's row of a's row i, or none; key_rows_of_b
/// likewise for a backward kernel's dk and dv, by (key token, kv head)) under k's conventions
/// where `bitwise`, else both runs within the contract.
Verdict same_rows(const AttentionKernel& k, bool bitwise, const AttentionCase& ca,
                  const AttentionOutputs& a, const AttentionCase& cb, const AttentionOutputs& b,
                  const std::vector<std::int64_t>& rows_of_b, const std::string& how,
                  const std::vector<std::int64_t>& key_rows_of_b = {}) {
  if (!bitwise) {
    for (const auto& [c, out] : {std::pair{&ca, &a}, std::pair{&cb, &b}}) {
      Verdict v = accuracy_of(k, *c, *out);
      if (v.fails()) {
        v.explanation = how + ": " + v.explanation;
        return v;
      }
    }
    return Verdict::pass();
  }
  const ValueConventions& conv = k.value_conventions();
  const std::tuple<AttnOutput, const std::vector<float>&, const std::vector<float>&,
                   const std::vector<std::int64_t>&, int>
      outputs[] = {{AttnOutput::O, a.o, b.o, rows_of_b, ca.head_dim_v},
                   {AttnOutput::Lse, a.lse, b.lse, rows_of_b, 1},
                   {AttnOutput::Dq, a.dq, b.dq, rows_of_b, ca.head_dim_qk},
                   {AttnOutput::Delta, a.delta, b.delta, rows_of_b, 1},
                   {AttnOutput::Dk, a.dk, b.dk, key_rows_of_b, ca.head_dim_qk},
                   {AttnOutput::Dv, a.dv, b.dv, key_rows_of_b, ca.head_dim_v}};
  for (const auto& [what, x, y, rows, dim] : outputs) {
    if (x.empty() || y.empty()) continue;
    const auto d = static_cast<std::size_t>(dim);
    for (std::size_t row = 0; row < rows.size(); ++row) {
      if (rows[row] < 0) continue;
      const auto other = static_cast<std::size_t>(rows[row]);
      for (std::size_t c = 0; c < d; ++c)
        if (!same(x[row * d + c], y[other * d + c], conv))
          return Verdict::fail(how + ": " + attention_element_name(what, row, c, ca) + " is " +
                               readable(x[row * d + c]) + ", then " + readable(y[other * d + c]));
    }
  }
  return Verdict::pass();
}

/// A backward kernel's dsinks of one call held to the contract of that call's own exact value:
/// each sums a head's rows over the call's batch, so no other call has its bits (a reversed batch
/// sums in another order, a sequence alone sums less).
Verdict dsinks_within_contract(const AttentionKernel& k, const AttentionCase& c,
                               const AttentionOutputs& out, const std::string& how) {
  if (out.dsinks.empty()) return Verdict::pass();
  AttentionOutputs only;
  only.dsinks = out.dsinks;
  Verdict v = accuracy_of(k, c, only);
  if (v.fails()) v.explanation = how + ": " + v.explanation;
  return v;
}

/// A derived call k does not declare (a piece shorter than its min_k_len, a masked piece that
/// is not square) cannot be compared: the law has nothing to judge on this case.
Verdict not_declared(const AttentionKernel& k, const std::string& call, const std::string& why) {
  return Verdict::vacuous(call + " is outside what " + k.name() + " declares (" + why + ")");
}

/// c with its K/V in pages of `page_size` (0: contiguous), logical page p in physical page p, or
/// in reverse order.
AttentionCase with_pages(AttentionCase c, int page_size, bool reversed) {
  c.page_size = page_size;
  c.page_order.clear();
  const std::int64_t n = page_size > 0 ? c.logical_pages() : 0;
  for (std::int64_t p = 0; p < n; ++p) c.page_order.push_back(reversed ? n - 1 - p : p);
  return c;
}

/// The outputs of copy `r` of a batch that repeats one of `rows` rows (o of dv components a row).
AttentionOutputs copy_of(const AttentionOutputs& grown, std::size_t rows, std::size_t dv,
                         std::size_t r) {
  AttentionOutputs out;
  const auto o = grown.o.begin() + static_cast<std::ptrdiff_t>(r * rows * dv);
  out.o.assign(o, o + static_cast<std::ptrdiff_t>(rows * dv));
  if (!grown.lse.empty()) {
    const auto l = grown.lse.begin() + static_cast<std::ptrdiff_t>(r * rows);
    out.lse.assign(l, l + static_cast<std::ptrdiff_t>(rows));
  }
  return out;
}

/// Whether c's mask lets no query see a key right of its diagonal, bottom-right aligned: then a
/// chunk of queries against the keys up to its last query's diagonal sees what it sees in one
/// call (causal, or a window bounded by 0 on the right).
bool sees_nothing_after_diagonal(const AttentionCase& c) {
  const bool causal = c.mask.kind == MaskKind::Causal ||
                      (c.mask.kind == MaskKind::Window && c.mask.window_right == 0);
  return causal && c.mask.align == MaskAlign::BottomRight;
}

}  // namespace

Verdict check_batch_invariance(const AttentionKernel& k, const AttentionCase& c) {
  if (c.seqs.size() < 2)
    return Verdict::vacuous("one sequence: no other sequence to be invariant to");
  const AttentionOutputs given = run(k, c);
  std::vector<std::size_t> reversed(c.seqs.size());
  for (std::size_t s = 0; s < reversed.size(); ++s) reversed[s] = reversed.size() - 1 - s;
  std::vector<std::pair<std::vector<std::size_t>, std::string>> batches{
      {reversed, "the batch's sequences in reverse order"}};
  for (std::size_t s = 0; s < c.seqs.size() && s < 3; ++s)
    batches.push_back({{s}, "sequence " + std::to_string(s) + " alone"});
  for (const auto& [order, how] : batches) {
    const std::vector<SequencePart> parts = whole(c, order);
    const AttentionCase other = with_parts(c, parts);
    const AttentionOutputs out = run(k, other);
    Verdict v = same_rows(k, k.batch_bitwise(), c, given, other, out, rows_in(c, parts), how,
                          key_rows_in(c, parts));
    if (v.fails()) return v;
    // (not bitwise, same_rows judged every output of both calls, dsinks too)
    if (k.batch_bitwise() && (v = dsinks_within_contract(k, other, out, how)).fails()) return v;
  }
  return Verdict::pass();
}

Verdict check_page_layout(const AttentionKernel& k, const AttentionCase& c) {
  std::vector<std::pair<AttentionCase, std::string>> layouts;
  if (c.page_size > 0)
    layouts.push_back({with_pages(c, c.page_size, true), "its pages in reverse order"});
  for (int p : k.page_sizes())
    if (p != c.page_size)
      layouts.push_back({with_pages(c, p, false), "pages of " + std::to_string(p)});
  if (c.page_size > 0 && !k.paged_only())
    layouts.push_back({with_pages(c, 0, false), "contiguous K/V"});
  if (layouts.empty()) return Verdict::vacuous("no other page layout declared");
  const AttentionOutputs given = run(k, c);
  const std::string from =
      c.page_size > 0 ? "pages of " + std::to_string(c.page_size) : std::string("contiguous K/V");
  for (const auto& [other, how] : layouts) {
    const Verdict v = same_rows(k, k.page_bitwise(), c, given, other, run(k, other),
                                same_positions(c), from + ", then " + how);
    if (v.fails()) return v;
  }
  return Verdict::pass();
}

/// The kernel's own split choice against every declared split parameter (split_bitwise), then
/// the batch repeated 8 and 64 times with its own choice (batch_bitwise: a split count that
/// follows the batch, an unsplit path above a batch size, is batch variance the given batch's
/// size of at most a few sequences does not reach).
Verdict check_split_invariance(const AttentionKernel& k, const AttentionCase& c) {
  AttentionCase own = c;
  own.kv_splits = 0;
  const AttentionOutputs given = run(k, own);
  const std::string by = to_string(k.split_by());
  for (int v : k.split_values()) {
    AttentionCase split = own;
    split.kv_splits = v;
    const Verdict verdict =
        same_rows(k, k.split_bitwise(), own, given, split, run(k, split), same_positions(own),
                  "its own split choice, then a split " + by + " of " + std::to_string(v));
    if (verdict.fails()) return verdict;
  }
  const std::size_t rows = static_cast<std::size_t>(own.total_q() * own.heads_q);
  for (const std::size_t copies : {std::size_t{8}, std::size_t{64}}) {
    std::vector<std::size_t> order;
    for (std::size_t r = 0; r < copies; ++r)
      for (std::size_t s = 0; s < own.seqs.size(); ++s) order.push_back(s);
    const AttentionCase grown = with_parts(own, whole(own, order));
    if (const std::string why = undeclared_in(k, grown); !why.empty())
      return not_declared(k, "the batch repeated", why);
    const AttentionOutputs out = run(k, grown);
    for (std::size_t r = 0; r < copies; ++r) {
      const Verdict verdict = same_rows(
          k, k.batch_bitwise(), own, given, own,
          copy_of(out, rows, static_cast<std::size_t>(own.head_dim_v), r), same_positions(own),
          "its own split choice, then in a batch of " + std::to_string(grown.seqs.size()) +
              " sequences (the batch " + std::to_string(copies) + " times), copy " +
              std::to_string(r));
      if (verdict.fails()) return verdict;
    }
  }
  return Verdict::pass();
}

/// Chunks of 1, 2 and 3 queries: step t runs every sequence's queries [t C, (t + 1) C) against
/// its keys up to the chunk's last diagonal (k_len - q_len + its last query + 1), a sequence
/// whose queries are done with none (the batch keeps its sequences in their places, so that
/// batch variance is not taken for chunking).
Verdict check_chunked_prefill(const AttentionKernel& k, const AttentionCase& c) {
  if (!sees_nothing_after_diagonal(c))
    return Verdict::vacuous(
        "the mask lets a query see keys right of its diagonal (or aligns it top-left): a "
        "chunk's KV prefix leaves them out");
  std::int64_t most_queries = 0;
  for (const AttentionSequence& s : c.seqs) most_queries = std::max(most_queries, s.q_len);
  if (most_queries < 2) return Verdict::vacuous("one query a sequence: nothing to chunk");
  const AttentionOutputs given = run(k, c);
  bool any = false;
  for (std::int64_t chunk = 1; chunk <= 3 && chunk < most_queries; ++chunk)
    for (std::int64_t t = 0; t * chunk < most_queries; ++t) {
      std::vector<SequencePart> parts;
      for (std::size_t s = 0; s < c.seqs.size(); ++s) {
        const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
        const std::int64_t begin = std::min(t * chunk, lq), end = std::min(begin + chunk, lq);
        // Keys up to the last query's diagonal lk - lq + end - 1 (none when it is left of 0).
        parts.push_back({s, begin, end, std::max<std::int64_t>(0, lk - lq + end)});
      }
      const AttentionCase step = with_parts(c, parts);
      const std::string how = "chunks of " + std::to_string(chunk) + " queries, chunk " +
                              std::to_string(t) + " against its KV prefix";
      if (!undeclared_in(k, step).empty()) continue;
      any = true;
      const Verdict v =
          same_rows(k, k.chunk_bitwise(), c, given, step, run(k, step), rows_in(c, parts), how);
      if (v.fails()) return v;
    }
  if (!any) return not_declared(k, "every chunk", "min_k_len or square_masks");
  return Verdict::pass();
}

/// Every sequence's last query alone over the same keys (bottom-right aligned, its diagonal is
/// the last key in both calls, whatever the mask).
Verdict check_prefill_decode(const AttentionKernel& k, const AttentionCase& c) {
  if (c.mask.align == MaskAlign::TopLeft &&
      (c.mask.kind != MaskKind::None || !c.alibi_slopes.empty()))
    return Verdict::vacuous("a top-left diagonal puts a decode step's query at the first key");
  bool longer = false;
  std::vector<SequencePart> parts;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len;
    longer = longer || lq > 1;
    parts.push_back({s, std::max<std::int64_t>(lq - 1, 0), lq, c.seqs[s].k_len});
  }
  if (!longer) return Verdict::vacuous("one query a sequence: the prefill is its decode step");
  const AttentionCase decode = with_parts(c, parts);
  if (const std::string why = undeclared_in(k, decode); !why.empty())
    return not_declared(k, "the decode step", why);
  return same_rows(k, k.decode_bitwise(), c, run(k, c), decode, run(k, decode), rows_in(c, parts),
                   "the prefill's last rows, then a decode step");
}

std::string excluded_without_pages(const AttentionKernel& k) {
  return k.page_sizes().empty() ? k.name() + " reads no paged K/V" : "";
}

std::string excluded_without_splits(const AttentionKernel& k) {
  return k.splits() ? "" : k.name() + " declares no KV splits (kv_splits)";
}

std::string excluded_without_chunks(const AttentionKernel& k) {
  if (k.backward())
    return k.name() + " computes gradients: its keys' gradients sum over every query of one call";
  if (!k.supports(MaskKind::Causal) && !k.supports(MaskKind::Window))
    return k.name() +
           " supports neither a causal mask nor a window: a chunk of queries against its KV "
           "prefix would see fewer keys than in one call";
  if (k.mask_align() == MaskAlign::TopLeft)
    return k.name() +
           " aligns its diagonal top-left: a chunk's queries would sit at their prefix's first "
           "keys";
  if (k.square_masks())
    return k.name() +
           " takes only square masked sequences, and a chunk has fewer queries than "
           "keys";
  return "";
}

std::string excluded_without_decode(const AttentionKernel& k) {
  if (k.backward())
    return k.name() + " computes gradients: a decode step has no backward of its own";
  if (k.mask_align() == MaskAlign::TopLeft)
    return k.name() +
           " aligns its diagonal top-left: a decode step's query would sit at the "
           "first key";
  return "";
}

}  // namespace osvs::attention_across_calls
