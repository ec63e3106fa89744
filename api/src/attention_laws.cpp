#include "osvs/api/attention_laws.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

#include "attention_law_parts.h"
#include "osvs/api/attention_accuracy.h"
#include "osvs/api/law_names.h"
#include "osvs/kernels/hex.h"

namespace osvs {
namespace attention_law_parts {

/// The kernel's outputs with its empty-row lse read as -inf (osvs's convention).
AttentionOutputs run(const AttentionKernel& k, const AttentionCase& c, const AttentionFill& f) {
  AttentionOutputs out = run_attention_kernel(k, c, f);
  if (k.empty_row_lse() == EmptyRowLse::PosInf)
    for (float& l : out.lse)
      if (l == INFINITY) l = -INFINITY;
  return out;
}

/// a and b hold the same bits, under k's conventions (any NaN; either zero sign).
bool same(float a, float b, const ValueConventions& v) {
  if (std::memcmp(&a, &b, sizeof a) == 0) return true;
  if (v.any_nan_bits && std::isnan(a) && std::isnan(b)) return true;
  return v.either_zero_sign && a == 0 && b == 0;
}

/// The first element where two runs' outputs on case c differ, or "".
std::string first_difference(const AttentionOutputs& a, const AttentionOutputs& b,
                             const AttentionCase& c, const ValueConventions& v) {
  const std::tuple<AttnOutput, const std::vector<float>&, const std::vector<float>&, int>
      outputs[] = {
          {AttnOutput::O, a.o, b.o, c.head_dim_v},     {AttnOutput::Lse, a.lse, b.lse, 1},
          {AttnOutput::Dq, a.dq, b.dq, c.head_dim_qk}, {AttnOutput::Dk, a.dk, b.dk, c.head_dim_qk},
          {AttnOutput::Dv, a.dv, b.dv, c.head_dim_v},  {AttnOutput::Delta, a.delta, b.delta, 1},
          {AttnOutput::Dsinks, a.dsinks, b.dsinks, 1}};
  for (const auto& [what, x, y, dim] : outputs)
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (!same(x[i], y[i], v))
        return attention_element_name(what, i / static_cast<std::size_t>(dim),
                                      i % static_cast<std::size_t>(dim), c) +
               " is " + readable(x[i]) + " and " + readable(y[i]);
  return "";
}

/// A backward kernel's accuracy: every gradient element within its contract.
Verdict grad_accuracy_of(const AttentionKernel& k, const AttentionCase& c,
                         const AttentionOutputs& out) {
  const AttentionGradExact e = exact_attention_backward(c);
  if (!e.finite) return Verdict::vacuous("an input the gradients read is not finite");
  std::vector<Finding> findings;
  std::string first;
  double worst = 0;
  for (const AttentionElementError& x : attention_grad_errors(k, c, out, e)) {
    if (x.within()) continue;  // a NaN fails here
    const std::string name = attention_element_name(x, c);
    const std::string what = name.substr(0, name.find('['));
    const std::string why = name + " = " + readable(x.got) + ", exact " + digits9(x.exact) +
                            " (magnitude M = " + digits9(x.magnitude) + "): error " +
                            digits9(x.error / x.unit) + " ulp of M > contract " +
                            digits9(x.allowed / x.unit) + " (" + std::to_string(x.kept) +
                            " terms, score magnitude S = " + digits9(x.score) + ")";
    add_finding(findings, {what + (std::isnan(x.got) ? " is NaN" : " outside its contract"), why});
    const double ratio = std::isnan(x.error) ? INFINITY : x.error / x.allowed;
    if (first.empty() || ratio > worst) first = why, worst = ratio;
  }
  if (findings.empty()) return Verdict::pass();
  return Verdict::fail(first, {}, findings);
}

/// The accuracy law's verdict on k's outputs `out` for c: every element attention_errors measures
/// within its contract.
Verdict accuracy_of(const AttentionKernel& k, const AttentionCase& c, const AttentionOutputs& out) {
  if (k.backward()) return grad_accuracy_of(k, c, out);
  std::vector<Finding> findings;
  std::string first;
  double worst = 0;
  for (const AttentionElementError& x :
       attention_errors(k, c, out, exact_attention(c, c.in_type))) {
    if (x.within()) continue;  // a NaN fails here
    if (x.output == AttnOutput::O) {
      const std::string why = attention_element_name(AttnOutput::O, x.row, x.component, c) + " = " +
                              readable(x.got) + ", exact " + readable(x.exact_rounded) +
                              " (rounded; magnitude M = " + digits9(x.magnitude) + "): error " +
                              digits9(x.error / x.unit) + " ulp of M > contract " +
                              digits9(x.allowed / x.unit) + " (" + std::to_string(x.kept) +
                              " kept keys, score magnitude S = " + digits9(x.score) + ")";
      add_finding(findings, {std::isnan(x.got) ? "o is NaN" : "o outside its contract", why});
      const double ratio = std::isnan(x.error) ? INFINITY : x.error / x.allowed;
      if (first.empty() || ratio > worst) first = why, worst = ratio;
      continue;
    }
    const std::string why = attention_element_name(AttnOutput::Lse, x.row, 0, c) + " = " +
                            readable(x.got) + ", exact " + readable(x.exact_rounded) + ": error " +
                            digits9(x.error / x.unit) + " ulp > contract " +
                            digits9(x.allowed / x.unit) + " (" + std::to_string(x.kept) +
                            " kept keys)";
    add_finding(findings, {std::isnan(x.got) ? "lse is NaN" : "lse outside its contract", why});
    if (first.empty()) first = why;
  }
  if (findings.empty()) return Verdict::pass();
  return Verdict::fail(first, {}, findings);
}

}  // namespace attention_law_parts

namespace {

using namespace attention_law_parts;
using namespace attention_across_calls;

Verdict check_accuracy(const AttentionKernel& k, const AttentionCase& c) {
  return accuracy_of(k, c, run(k, c));
}

/// c with sequence 0's keys removed (k_len 0): every query of it attends to no key.
AttentionCase with_empty_kv(AttentionCase c) {
  const auto token = static_cast<std::size_t>(c.heads_kv);
  const auto n = static_cast<std::size_t>(c.seqs[0].k_len);
  c.k.erase(c.k.begin(), c.k.begin() + static_cast<std::ptrdiff_t>(n * token * c.head_dim_qk));
  c.v.erase(c.v.begin(), c.v.begin() + static_cast<std::ptrdiff_t>(n * token * c.head_dim_v));
  if (c.page_size > 0) {
    // Sequence 0's pages become spare ones (they stay, holding the unused fill).
    std::rotate(
        c.page_order.begin(),
        c.page_order.begin() + static_cast<std::ptrdiff_t>((n + c.page_size - 1) / c.page_size),
        c.page_order.end());
  }
  c.seqs[0].k_len = 0;
  return c;
}

/// A backward kernel's empty rows (docs/semantics.md §9.4): a row that keeps no key has dq = +0
/// and delta = +0, a key no row keeps dk = dv = +0, a head none of whose rows keeps a key
/// dsinks = +0 (no term reaches them).
Verdict check_grad_empty_rows(const AttentionKernel& k, const AttentionCase& given) {
  const AttentionGradExact probe = exact_attention_backward(given);
  if (!probe.finite) return Verdict::vacuous("an input the gradients read is not finite");
  const auto none = [](const std::vector<std::int64_t>& n) {
    return std::find(n.begin(), n.end(), 0) != n.end();
  };
  const bool has_empty = none(probe.kept) || none(probe.attended);
  if (!has_empty && k.min_k_len() > 0)
    return Verdict::vacuous("every row keeps a key and every key is kept, and " + k.name() +
                            " takes no sequence without keys");
  const AttentionCase c = has_empty ? given : with_empty_kv(given);
  const AttentionGradExact e = has_empty ? probe : exact_attention_backward(c);
  const AttentionOutputs out = run(k, c);
  std::vector<Finding> findings;
  // Every element of `got` (dim a row) in a row whose term count is 0 must be +0.
  const auto expect_zero = [&](AttnOutput what, const std::vector<float>& got, std::size_t dim,
                               const std::vector<std::int64_t>& terms, const char* why) {
    for (std::size_t row = 0; row < terms.size() && !got.empty(); ++row) {
      if (terms[row] != 0) continue;
      for (std::size_t cpt = 0; cpt < dim; ++cpt) {
        const float x = got[row * dim + cpt];
        if (same(x, 0.0f, k.value_conventions())) continue;
        AttentionElementError at;
        at.output = what;
        at.row = row;
        at.component = cpt;
        const std::string name = attention_element_name(at, c);
        add_finding(findings, {name.substr(0, name.find('[')) + " of an empty row is not +0",
                               name + " = " + readable(x) + " for " + why + " (expected +0)"});
      }
    }
  };
  const auto dqk = static_cast<std::size_t>(c.head_dim_qk),
             dv = static_cast<std::size_t>(c.head_dim_v);
  expect_zero(AttnOutput::Dq, out.dq, dqk, e.kept, "a row that keeps no key");
  expect_zero(AttnOutput::Delta, out.delta, 1, e.kept, "a row that keeps no key");
  expect_zero(AttnOutput::Dk, out.dk, dqk, e.attended, "a key that no row keeps");
  expect_zero(AttnOutput::Dv, out.dv, dv, e.attended, "a key that no row keeps");
  expect_zero(AttnOutput::Dsinks, out.dsinks, 1, e.sink_rows, "a head whose rows keep no key");
  if (findings.empty()) return Verdict::pass();
  return Verdict::fail(findings.front().explanation, {}, findings);
}

Verdict check_empty_rows(const AttentionKernel& k, const AttentionCase& given) {
  if (k.backward()) return check_grad_empty_rows(k, given);
  const AttentionExact probe = exact_attention(given, given.in_type);
  const bool has_empty = std::find(probe.kept.begin(), probe.kept.end(), 0) != probe.kept.end();
  if (!has_empty && k.min_k_len() > 0)
    return Verdict::vacuous("no row attends to no key, and " + k.name() +
                            " takes no sequence without keys");
  const AttentionCase c = has_empty ? given : with_empty_kv(given);
  const AttentionExact e = has_empty ? probe : exact_attention(c, c.in_type);
  const AttentionOutputs out = run(k, c);
  const ValueConventions& conv = k.value_conventions();
  const std::size_t dv = static_cast<std::size_t>(c.head_dim_v);
  std::vector<Finding> findings;
  for (std::size_t row = 0; row < e.kept.size(); ++row) {
    if (e.kept[row] != 0) continue;
    for (std::size_t cpt = 0; cpt < dv; ++cpt) {
      const float o = out.o[row * dv + cpt];
      if (same(o, 0.0f, conv)) continue;
      add_finding(findings, {std::isnan(o) ? "empty row's o is NaN" : "empty row's o is not +0",
                             attention_element_name(AttnOutput::O, row, cpt, c) + " = " +
                                 readable(o) + " for a row that attends to no key (expected +0)"});
    }
    if (!out.lse.empty() && c.sinks.empty() && out.lse[row] != -INFINITY)  // with sinks: sink
      add_finding(findings,
                  {"empty row's lse",
                   attention_element_name(AttnOutput::Lse, row, 0, c) + " = " +
                       readable(out.lse[row]) + " for a row that attends to no key (declared: " +
                       (k.empty_row_lse() == EmptyRowLse::PosInf ? "+inf" : "-inf") + ")"});
  }
  if (findings.empty()) return Verdict::pass();
  return Verdict::fail(findings.front().explanation, {}, findings);
}

/// The poison `poison` (NaN, inf or 1e30) as K/V of type t hold it: rounded to the in type as
/// before fp8; in an fp8 type one it represents: NaN, inf in e5m2 (e4m3 has none: its largest
/// finite value, 448), 1e30 the largest finite value (448, 57344), never the NaN that e4m3's
/// non-saturating overflow would make of them.
float kv_poison(DType t, float poison) {
  if (!is_fp8(t) || std::isnan(poison)) return round_to(t, poison);
  if (std::isinf(poison) && t == DType::E5M2) return poison;
  return std::copysign(max_finite_of(t), poison);
}

/// c with the k and v of every key that no query of its sequence keeps set to `poison` (a value
/// of c's K/V type).
AttentionCase with_masked_keys(AttentionCase c, float poison, bool* any) {
  const float p = poison;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    for (std::int64_t j = 0; j < lk; ++j) {
      bool kept = false;
      for (std::int64_t i = 0; i < lq && !kept; ++i) kept = key_kept(c.mask, i, j, lq, lk);
      if (kept) continue;
      *any = true;
      const auto t = static_cast<std::size_t>(c.k_start(s) + j) * c.heads_kv;
      std::fill_n(c.k.begin() + static_cast<std::ptrdiff_t>(t * c.head_dim_qk),
                  c.heads_kv * c.head_dim_qk, p);
      std::fill_n(c.v.begin() + static_cast<std::ptrdiff_t>(t * c.head_dim_v),
                  c.heads_kv * c.head_dim_v, p);
    }
  }
  return c;
}

Verdict check_poison(const AttentionKernel& k, const AttentionCase& c) {
  const AttentionOutputs clean = run(k, c);
  bool paged_slack = false;
  for (std::size_t s = 0; s < c.seqs.size() && c.page_size > 0; ++s)
    paged_slack = paged_slack || c.seqs[s].k_len % c.page_size != 0;
  paged_slack = paged_slack || (c.page_size > 0 &&
                                static_cast<std::int64_t>(c.page_order.size()) > c.logical_pages());
  std::vector<Finding> findings;
  bool any_masked = false;
  const DType kv = c.kv_storage();
  std::vector<float> done;  // (fp8: e4m3's inf and 1e30 are both 448, run once)
  for (const float poison : {NAN, INFINITY, 1e30f}) {
    const float p = kv_poison(kv, poison);
    if (c.kv_type && std::any_of(done.begin(), done.end(), [&](float d) { return same(d, p, {}); }))
      continue;
    done.push_back(p);
    const AttentionCase poisoned = with_masked_keys(c, p, &any_masked);
    // (the unused page slots: the poison as given, which K/V of the in type round as they store
    // it; the fp8 one)
    const AttentionOutputs dirty = run(k, poisoned, AttentionFill{c.kv_type ? p : poison});
    const std::string diff = first_difference(clean, dirty, c, k.value_conventions());
    const std::string what =
        readable(poison) + (c.kv_type && !same(p, poison, {})
                                ? " (" + std::string(to_string(kv)) + ": " + readable(p) + ")"
                                : "");
    if (!diff.empty())
      add_finding(findings, {"poison " + readable(poison),
                             "with " + what +
                                 " in the k and v of the keys no query keeps and in the unused "
                                 "page slots, " +
                                 diff + " (clean, then poisoned)"});
  }
  if (!any_masked && !paged_slack)
    return Verdict::vacuous("no key is masked for every query and no page slot is unused");
  if (findings.empty()) return Verdict::pass();
  return Verdict::fail(findings.front().explanation, {}, findings);
}

/// x, tokens of `heads` heads of `dim` floats each (q, k, v, dout; a per-head vector is one
/// token of dim 1), with `heads_out` heads a token: head h of a token is x's head from(h) of it.
template <class HeadFrom>
std::vector<float> regrouped_heads(const std::vector<float>& x, int heads, int dim, int heads_out,
                                   HeadFrom from) {
  std::vector<float> out;
  const std::size_t tokens = x.size() / (static_cast<std::size_t>(heads) * dim);
  for (std::size_t t = 0; t < tokens; ++t)
    for (int h = 0; h < heads_out; ++h) {
      const auto head = x.begin() + static_cast<std::ptrdiff_t>((t * heads + from(h)) * dim);
      out.insert(out.end(), head, head + dim);
    }
  return out;
}

/// c with kv head g repeated for each query head of its group (heads_kv = heads_q).
AttentionCase with_kv_repeated(AttentionCase c) {
  const int group = c.heads_q / c.heads_kv;
  const auto group_head = [group](int h) { return h / group; };
  c.k = regrouped_heads(c.k, c.heads_kv, c.head_dim_qk, c.heads_q, group_head);
  c.v = regrouped_heads(c.v, c.heads_kv, c.head_dim_v, c.heads_q, group_head);
  c.heads_kv = c.heads_q;
  return c;
}

/// c made to share kv heads: one kv head for every two query heads (q's heads duplicated when
/// c has one), kv head g the old kv head 2 g.
AttentionCase with_shared_kv(AttentionCase c) {
  if (c.heads_kv < c.heads_q) return c;
  if (c.heads_q % 2 != 0) {  // duplicate every query head (a backward's case: its dout too)
    const auto twice = [](int h) { return h / 2; };
    c.q = regrouped_heads(c.q, c.heads_q, c.head_dim_qk, 2 * c.heads_q, twice);
    c.dout = regrouped_heads(c.dout, c.heads_q, c.head_dim_v, 2 * c.heads_q, twice);
    for (std::vector<float>* per_head : {&c.sinks, &c.alibi_slopes})
      *per_head = regrouped_heads(*per_head, c.heads_q, 1, 2 * c.heads_q, twice);
    // kv heads likewise, so that heads_kv = heads_q before halving them
    c = with_kv_repeated([&] {
      AttentionCase d = c;
      d.heads_q = 2 * c.heads_q;
      return d;
    }());
  }
  const auto even = [](int g) { return 2 * g; };
  c.k = regrouped_heads(c.k, c.heads_kv, c.head_dim_qk, c.heads_kv / 2, even);
  c.v = regrouped_heads(c.v, c.heads_kv, c.head_dim_v, c.heads_kv / 2, even);
  c.heads_kv /= 2;
  return c;
}

Verdict check_gqa(const AttentionKernel& k, const AttentionCase& given) {
  const AttentionCase shared = with_shared_kv(given), repeated = with_kv_repeated(shared);
  AttentionOutputs a = run(k, shared);
  AttentionOutputs b = run(k, repeated);
  // A backward kernel's dk and dv of a shared kv head sum its group's: the copies' are the
  // terms of that sum, not its bits. Both within the contract; dq, delta and dsinks (a query
  // head's, whichever kv head it reads) bitwise if declared.
  const bool backward = k.backward();
  if (!k.gqa_bitwise() || backward) {  // both within the contract of the one exact result
    for (const auto& [c, out, how] : {std::tuple{&shared, &a, "sharing kv heads"},
                                      std::tuple{&repeated, &b, "with a kv copy each"}}) {
      Verdict v = accuracy_of(k, *c, *out);
      if (v.fails()) {
        v.explanation = std::string(how) + ": " + v.explanation;
        return v;
      }
    }
    if (!k.gqa_bitwise()) return Verdict::pass();
    a.dk.clear(), a.dv.clear(), b.dk.clear(), b.dv.clear();
  }
  const std::string diff = first_difference(a, b, shared, k.value_conventions());
  if (diff.empty()) return Verdict::pass();
  return Verdict::fail(std::to_string(shared.heads_q) + " query heads sharing " +
                       std::to_string(shared.heads_kv) +
                       " kv heads, then each its own copy: " + diff);
}

Verdict check_determinism(const AttentionKernel& k, const AttentionCase& c) {
  const AttentionOutputs a = run(k, c), b = run(k, c);
  const std::string diff = first_difference(a, b, c, k.value_conventions());
  if (diff.empty()) return Verdict::pass();
  return Verdict::fail("two runs of the same case: " + diff);
}

std::string nothing_excluded(const AttentionKernel&) {
  return "";
}

std::string excluded_without_outside(const AttentionKernel& k) {
  if (k.supports(MaskKind::Window) || !k.page_sizes().empty()) return "";
  return k.name() +
         " takes no window and no pages: every key of a case is attended to, no "
         "memory of it lies outside";
}

std::string excluded_without_gqa(const AttentionKernel& k) {
  return k.gqa() ? "" : k.name() + " does not declare gqa (heads_kv < heads_q)";
}

/// A row can be empty only through a sequence without keys, a window, or a bottom-right causal
/// mask over more queries than keys.
std::string excluded_without_empty_rows(const AttentionKernel& k) {
  if (k.min_k_len() == 0 || k.supports(MaskKind::Window) ||
      (k.supports(MaskKind::Causal) && k.mask_align() == MaskAlign::BottomRight &&
       !k.square_masks()))
    return "";
  return k.name() + " takes no sequence without keys and no mask that leaves a row without one";
}

/// The law's check on the cases k takes; another (a reduction outside k's declaration, a case
/// of another kernel's file) is not judged.
template <Verdict (*Check)(const AttentionKernel&, const AttentionCase&)>
Verdict on_declared(const AttentionKernel& k, const AttentionCase& c) {
  if (const std::string why = undeclared_in(k, c); !why.empty())
    return Verdict::vacuous(k.name() + " does not declare " + why);
  return Check(k, c);
}

}  // namespace

namespace {

/// An invariance that asks every kernel for the same bits (poison, determinism).
bool asks_bits(const AttentionKernel&) {
  return true;
}

/// A law across calls that never asks for bits (cascade: a merge rounds where one call does not).
bool never_bits(const AttentionKernel&) {
  return false;
}

/// An invariance that asks for the same bits unless the kernel declares it not bitwise (then
/// for every call within the contract).
template <bool (AttentionKernel::*Bitwise)() const>
bool bits_if(const AttentionKernel& k) {
  return (k.*Bitwise)();
}

}  // namespace

const std::vector<AttentionLaw>& attention_laws() {
  static const std::vector<AttentionLaw> laws = laws_named<AttentionLaw>(
      {
          {"accuracy",
           "every o and lse of a row with a kept key is within the declared contract of the exact "
           "attention (a backward kernel: every dq, delta of such a row, dk, dv of a kept key and "
           "dsinks of a head with such a row within its gradient contract)",
           on_declared<check_accuracy>, nothing_excluded},
          {"empty_rows",
           "a query that attends to no key gives o = +0 and the declared lse of an empty row (a "
           "backward kernel: dq = delta = +0, dk = dv = +0 for a key no query keeps, dsinks = +0 "
           "for a head whose queries keep no key)",
           on_declared<check_empty_rows>, excluded_without_empty_rows},
          {"poison",
           "NaN, inf or 1e30 in the keys no query keeps and in unused page slots leaves every "
           "output bitwise unchanged",
           on_declared<check_poison>, excluded_without_outside, false, asks_bits},
          {"gqa",
           "query heads sharing a kv head give the bits they give with a copy each (or, where "
           "declared not bitwise, both are within the contract; a backward kernel: both within "
           "the contract, dq, delta and dsinks bitwise)",
           on_declared<check_gqa>, excluded_without_gqa, false,
           bits_if<&AttentionKernel::gqa_bitwise>},
          {"determinism", "two runs of the same case give the same bits",
           on_declared<check_determinism>, nothing_excluded, false, asks_bits},
          {"batch_invariance",
           "a sequence's rows have the bits they have in the batch when the batch is reversed "
           "and when the sequence runs alone (or, where declared not bitwise, all within the "
           "contract; a backward kernel's dsinks, a sum over the batch, within the contract of "
           "each call's own)",
           on_declared<check_batch_invariance>, nothing_excluded, false,
           bits_if<&AttentionKernel::batch_bitwise>},
          {"page_layout",
           "the same K/V in its pages reversed, in every other declared page size and "
           "contiguous give the same bits (or, where declared not bitwise, all within the "
           "contract)",
           on_declared<check_page_layout>, excluded_without_pages, false,
           bits_if<&AttentionKernel::page_bitwise>},
          {"split_invariance",
           "every declared split parameter gives the bits of the kernel's own choice, and a "
           "sequence keeps its bits in batches of 8 and 64 times its own (or, where declared "
           "not bitwise, all within the contract)",
           on_declared<check_split_invariance>, excluded_without_splits, false,
           bits_if<&AttentionKernel::split_bitwise>},
          {"chunked_prefill",
           "queries in chunks of 1, 2 and 3, each chunk against its growing KV prefix, give the "
           "bits of one call (or, where declared not bitwise, all within the contract)",
           on_declared<check_chunked_prefill>, excluded_without_chunks, false,
           bits_if<&AttentionKernel::chunk_bitwise>},
          {"prefill_decode",
           "a decode step (each sequence's last query alone over the same KV) gives the bits of "
           "the prefill's last row (or, where declared not bitwise, both within the contract)",
           on_declared<check_prefill_decode>, excluded_without_decode, false,
           bits_if<&AttentionKernel::decode_bitwise>},
          {"cascade",
           "a shared prefix's partial and the suffix's, each a call, merged by the declared "
           "merge kernel give the one call within the merge bound of two partials within the "
           "contract",
           on_declared<check_cascade>, excluded_without_cascade, false, never_bits},
      },
      kAttentionLawNames, "attention_laws()");
  return laws;
}

AttentionCase fit_to(const AttentionKernel& k, AttentionCase c) {
  const auto& types = k.in_types();
  if (std::find(types.begin(), types.end(), c.in_type) == types.end()) {
    c.in_type = types.front();
    for (auto* x : {&c.q, &c.k, &c.v, &c.dout})
      for (float& v : *x) v = round_to(c.in_type, v);
    // (fp8 K/V: their values are exact in every in type, and stay)
  }
  if (c.kv_type && !k.takes_kv_type(*c.kv_type)) {  // dequantised into the in type
    for (auto [x, s] : {std::pair{&c.k, c.k_scale}, std::pair{&c.v, c.v_scale}})
      for (float& v : *x) v = round_to(c.in_type, static_cast<float>(double{s} * v));
    c.kv_type.reset();
    c.k_scale = c.v_scale = 1;
  }
  if (!c.kv_type && k.kv_types_only()) {  // quantised to its first fp8 type, scales 1
    c.kv_type = k.kv_types().front();
    const float top = max_finite_of(*c.kv_type);  // (saturated: never e4m3's overflow NaN)
    for (auto* x : {&c.k, &c.v})
      for (float& v : *x) v = round_to(*c.kv_type, std::isfinite(v) ? std::clamp(v, -top, top) : v);
  }
  if (!k.softcap()) c.softcap = 0;
  if (!k.sinks()) c.sinks.clear();
  if (!k.alibi()) c.alibi_slopes.clear();
  if (std::find(k.split_values().begin(), k.split_values().end(), c.kv_splits) ==
      k.split_values().end())
    c.kv_splits = 0;
  if (!k.supports(c.mask.kind)) c.mask = AttentionMask{};
  c.mask.align = k.mask_align();
  if (!k.gqa() && c.heads_kv != c.heads_q) c = with_kv_repeated(std::move(c));
  const auto& pages = k.page_sizes();
  if (c.page_size > 0 && std::find(pages.begin(), pages.end(), c.page_size) == pages.end()) {
    c.page_size = 0;
    c.page_order.clear();
  }
  if (c.page_size == 0 && k.paged_only()) {
    c.page_size = pages.front();
    c.page_order.resize(static_cast<std::size_t>(c.logical_pages()));
    for (std::size_t i = 0; i < c.page_order.size(); ++i)
      c.page_order[i] = static_cast<std::int64_t>(i);
  }
  if (k.writes_lse() &&
      std::find(k.lse_bases().begin(), k.lse_bases().end(), c.base) == k.lse_bases().end())
    c.base = k.lse_bases().front();
  if (k.backward() &&
      c.dout.size() != static_cast<std::size_t>(c.total_q() * c.heads_q * c.head_dim_v)) {
    // A forward's case: a fixed dout, the values 1/4, -1/2, 3/4, -1, ... (exact in any in type)
    c.dout.resize(static_cast<std::size_t>(c.total_q() * c.heads_q * c.head_dim_v));
    for (std::size_t i = 0; i < c.dout.size(); ++i)
      c.dout[i] = static_cast<float>(i % 4 + 1) * (i % 2 == 0 ? 0.25f : -0.25f);
  }
  return c;
}

}  // namespace osvs
