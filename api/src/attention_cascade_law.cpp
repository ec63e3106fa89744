// The cascade law (docs/semantics.md §9.3): a shared prefix's partial and the suffix's, each a
// call of the kernel, merged by the merge kernel it names, give the one call's attention within
// the derived bound of a merge of two partials that are within the kernel's contract.
//
// The derivation. Let a sequence's keys be cut at p: the prefix [0, p) and the suffix [p, n). In
// exact arithmetic the attention over [0, n) is the merge of the two partials (o_P, lse_P),
// (o_S, lse_S): lse = log_b(b^lse_P + b^lse_S), o = w o_P + (1 - w) o_S with w = b^lse_P /
// b^lse. The prefix call sees every prefix key for every query only where the mask lets it:
// here no mask (any p in [1, n - 1]) or a bottom-right causal one with p <= n - q_len (the first
// query's diagonal is key n - q_len); then the prefix call runs unmasked and the suffix call
// with the case's mask, whose bottom-right diagonal stays on the same keys (both calls count
// from the end). Windows, top-left diagonals, sinks (one denominator term, not two) and ALiBi
// (distances from the end of each call's keys) have no such cut, and the law is vacuous there.
// Each call is first held to the kernel's contract (the accuracy law's check); an element's
// allowance is then a relative and an absolute error of its partial: o_rel = max_c allowed_c /
// M_c over the components with M_c > 0, o_abs the largest allowed_c where M_c = 0, lse_abs the
// lse's allowance, i.e. oracle::AttnBound, in which |o^_c - o_c| <= o_rel M_c + o_abs holds for
// every c. oracle::merge_bound carries two such partials through one merge (its exp, log and
// roundings: CUDA's figures for a device merge kernel, glibc's for a host one; the partials'
// lse errors move the weights, oracle/src/attention_bounds.cpp), relative to the merged M_c,
// which is the one call's (p_j = w p_j^P on the prefix keys). The merged o and lse must be within
// o_tolerance and lse_tolerance of that bound against the exact attention of the one call.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attention_derived_calls.h"
#include "attention_law_parts.h"
#include "osvs/api/attention_accuracy.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/merge_runner.h"
#include "osvs/api/registry.h"
#include "osvs/kernels/hex.h"
#include "osvs/oracle/attention_bounds.h"

namespace osvs::attention_across_calls {
namespace {

using namespace attention_law_parts;
using namespace attention_derived_calls;

/// The longest prefix of sequence s every query sees whole (0: none), under c's mask.
std::int64_t longest_shared_prefix(const AttentionCase& c, std::size_t s) {
  const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
  if (lq == 0 || lk < 2) return 0;
  if (c.mask.kind == MaskKind::None) return lk - 1;
  if (c.mask.kind == MaskKind::Causal && c.mask.align == MaskAlign::BottomRight)
    return std::max<std::int64_t>(0, std::min(lk - lq, lk - 1));
  return 0;
}

/// One partial's allowance as an AttnBound (the file's comment), from its elements' errors
/// (attention_errors' order: a row's o components, then its lse).
struct PartialBounds {
  std::vector<oracle::AttnBound> rows;
  std::vector<double> v_max;  ///< the largest |o^_c| of each row
};

PartialBounds partial_bounds(const AttentionCase& c, const AttentionOutputs& out,
                             const std::vector<AttentionElementError>& errors) {
  const auto rows = static_cast<std::size_t>(c.total_q() * c.heads_q);
  const auto dv = static_cast<std::size_t>(c.head_dim_v);
  PartialBounds b{std::vector<oracle::AttnBound>(rows), std::vector<double>(rows, 0)};
  for (const AttentionElementError& e : errors) {
    oracle::AttnBound& r = b.rows[e.row];
    r.empty = false;
    if (e.output == AttnOutput::Lse)
      r.lse_abs = e.allowed;
    else if (e.magnitude > 0)
      r.o_rel = std::max(r.o_rel, e.allowed / e.magnitude);
    else
      r.o_abs = std::max(r.o_abs, e.allowed);
  }
  for (std::size_t row = 0; row < rows; ++row)
    for (std::size_t cpt = 0; cpt < dv; ++cpt)
      b.v_max[row] = std::max(b.v_max[row], std::fabs(double{out.o[row * dv + cpt]}));
  return b;
}

/// The merge kernel k names, or nullptr.
const MergeKernel* cascade_merger(const AttentionKernel& k) {
  return k.cascade_merge().empty() ? nullptr : find_registered<MergeKernel>(k.cascade_merge());
}

/// The verdict of one cut: sequence s's keys cut at cut[s] (0: s left out).
Verdict check_cut(const AttentionKernel& k, const MergeKernel& merger, const AttentionCase& c,
                  const AttentionExact& exact, const std::vector<std::int64_t>& cut,
                  const std::string& how) {
  std::vector<SequencePart> prefix_parts, suffix_parts;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    if (cut[s] == 0) continue;
    const std::int64_t lq = c.seqs[s].q_len, lk = c.seqs[s].k_len;
    prefix_parts.push_back({s, 0, lq, cut[s], 0});
    suffix_parts.push_back({s, 0, lq, lk - cut[s], cut[s]});
  }
  AttentionCase prefix = with_parts(c, prefix_parts);
  prefix.mask = AttentionMask{};  // every prefix key is seen by every query (longest_shared_prefix)
  prefix.mask.align = c.mask.align;
  const AttentionCase suffix = with_parts(c, suffix_parts);
  const AttentionCase* calls[] = {&prefix, &suffix};
  const char* call_names[] = {"the prefix call", "the suffix call"};
  for (int i = 0; i < 2; ++i)
    if (const std::string why = undeclared_in(k, *calls[i]); !why.empty())
      return Verdict::vacuous(how + ": " + call_names[i] + " is outside what " + k.name() +
                              " declares (" + why + ")");
  const AttentionOutputs out_p = run(k, prefix), out_s = run(k, suffix);
  const AttentionOutputs* outs[] = {&out_p, &out_s};
  for (int i = 0; i < 2; ++i) {
    Verdict v = accuracy_of(k, *calls[i], *outs[i]);
    if (v.fails()) {
      v.explanation = how + ", " + call_names[i] + ": " + v.explanation;
      return v;
    }
  }
  const AttentionExact exact_p = exact_attention(prefix, prefix.in_type),
                       exact_s = exact_attention(suffix, suffix.in_type);
  const PartialBounds bp = partial_bounds(prefix, out_p,
                                          attention_errors(k, prefix, out_p, exact_p)),
                      bs = partial_bounds(suffix, out_s,
                                          attention_errors(k, suffix, out_s, exact_s));
  // The rows of the cut sequences, the prefix's and the suffix's in the same places.
  const std::vector<std::int64_t> at = rows_in(c, prefix_parts);
  const auto dv = static_cast<std::size_t>(c.head_dim_v);
  std::vector<std::size_t> rows;
  AttnStates a, b;
  for (AttnStates* s : {&a, &b}) {
    s->head_dim = c.head_dim_v;
    s->o_type = c.in_type;
  }
  for (std::size_t row = 0; row < at.size(); ++row) {
    if (at[row] < 0) continue;
    const auto r = static_cast<std::size_t>(at[row]);
    if (bp.rows[r].empty || bs.rows[r].empty || !std::isfinite(exact.lse[row])) continue;
    rows.push_back(row);
    a.lse.push_back(out_p.lse[r]);
    b.lse.push_back(out_s.lse[r]);
    a.o.insert(a.o.end(), out_p.o.begin() + static_cast<std::ptrdiff_t>(r * dv),
               out_p.o.begin() + static_cast<std::ptrdiff_t>((r + 1) * dv));
    b.o.insert(b.o.end(), out_s.o.begin() + static_cast<std::ptrdiff_t>(r * dv),
               out_s.o.begin() + static_cast<std::ptrdiff_t>((r + 1) * dv));
  }
  if (rows.empty()) return Verdict::vacuous(how + ": no row with both partials and a finite lse");
  a.rows = b.rows = static_cast<std::int64_t>(rows.size());
  const AttnStates merged = run_merge_kernel(merger, a, b, c.base);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t row = rows[i], r = static_cast<std::size_t>(at[row]);
    oracle::AttnBoundContext ctx;
    ctx.head_dim = c.head_dim_v;
    ctx.base = c.base;
    ctx.out = c.in_type;
    ctx.gpu = merger.where() == Where::Device;
    ctx.lse_magnitude =
        std::max({std::fabs(exact.lse[row]), std::fabs(exact_p.lse[r]), std::fabs(exact_s.lse[r]),
                  std::fabs(double{a.lse[i]}), std::fabs(double{b.lse[i]})});
    ctx.v_max = std::max(bp.v_max[r], bs.v_max[r]);
    const oracle::AttnBound bound = oracle::merge_bound(bp.rows[r], bs.rows[r], ctx);
    const std::string where = how + ", merged by " + merger.name() + ": ";
    for (std::size_t cpt = 0; cpt < dv; ++cpt) {
      const double got = merged.o[i * dv + cpt], want = exact.o[row * dv + cpt];
      const double tol = oracle::o_tolerance(bound, exact.magnitude[row * dv + cpt]);
      if (!(std::fabs(got - want) <= tol))
        return Verdict::fail(where + attention_element_name(AttnOutput::O, row, cpt, c) + " = " +
                             readable(got) + ", exact " + readable(want) + ": error " +
                             digits9(std::fabs(got - want)) + " > " + digits9(tol) +
                             ", the merge bound of the partials' contracts");
    }
    const double got = merged.lse[i], want = exact.lse[row];
    const double tol = oracle::lse_tolerance(bound, want);
    if (!(std::fabs(got - want) <= tol))
      return Verdict::fail(where + attention_element_name(AttnOutput::Lse, row, 0, c) + " = " +
                           readable(got) + ", exact " + readable(want) + ": error " +
                           digits9(std::fabs(got - want)) + " > " + digits9(tol) +
                           ", the merge bound of the partials' contracts");
  }
  return Verdict::pass();
}

}  // namespace

Verdict check_cascade(const AttentionKernel& k, const AttentionCase& c) {
  if (!c.sinks.empty())
    return Verdict::vacuous("sinks: their term joins one partial's denominator, not both");
  if (!c.alibi_slopes.empty())
    return Verdict::vacuous("ALiBi: a call's distances count from the end of its own keys");
  const MergeKernel* merger = cascade_merger(k);
  if (merger == nullptr) return Verdict::vacuous("no registered cascade merge kernel");
  if (std::find(merger->o_types().begin(), merger->o_types().end(), c.in_type) ==
          merger->o_types().end() ||
      std::find(merger->lse_bases().begin(), merger->lse_bases().end(), c.base) ==
          merger->lse_bases().end())
    return Verdict::vacuous(merger->name() + " takes no o of " + to_string(c.in_type) +
                            " or no lse base " + to_string(c.base));
  std::vector<std::int64_t> longest(c.seqs.size());
  bool any = false;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    longest[s] = longest_shared_prefix(c, s);
    any = any || longest[s] > 0;
  }
  if (!any)
    return Verdict::vacuous(
        "no sequence has a key prefix every query sees (a window, a top-left diagonal, or too "
        "few keys)");
  const AttentionExact exact = exact_attention(c, c.in_type);
  std::vector<std::int64_t> shortest(c.seqs.size());
  for (std::size_t s = 0; s < c.seqs.size(); ++s)
    shortest[s] = std::min<std::int64_t>(1, longest[s]);
  bool judged = false;
  for (const auto& [cut, how] : {std::pair{shortest, "a prefix of one key"},
                                 std::pair{longest, "the longest prefix every query sees"}}) {
    const Verdict v = check_cut(k, *merger, c, exact, cut, how);
    if (v.fails()) return v;
    judged = judged || v.holds();
  }
  return judged ? Verdict::pass() : Verdict::vacuous("neither cut was judged");
}

std::string excluded_without_cascade(const AttentionKernel& k) {
  if (k.cascade_merge().empty()) return k.name() + " names no cascade merge kernel";
  if (cascade_merger(k) == nullptr)
    return k.name() + " names the cascade merge kernel " + k.cascade_merge() +
           ", which is not registered";
  if (!k.supports(MaskKind::None))
    return k.name() + " takes no unmasked call, and the prefix call is one";
  return "";
}

}  // namespace osvs::attention_across_calls
