// Attention kernels' cases for the law runs (kind_cases.h): problems drawn from what the kernel
// declares (its in types, fp8 K/V, masks, head_dims, pages, gqa, varlen), and the reductions that
// make a failing case smaller along every dimension (sequences, queries, keys, heads, head_dim,
// pages).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "kind_cases.h"

namespace osvs::testbed {
namespace {

/// What a reduction keeps of a case: per sequence its first q_len queries and k_len keys from
/// its key first_key on (a sequence with keep false is dropped), the kv heads listed in kv_heads
/// with the query heads of each group listed in group_heads, the components listed in comps of
/// every head (q, k and v alike: the case keeps head_dim_qk == head_dim_v), and the spare pages or
/// not.
struct Kept {
  std::vector<bool> keep;
  std::vector<AttentionSequence> lens;
  std::vector<std::int64_t> first_key;
  std::vector<int> kv_heads;
  std::vector<int> group_heads;
  std::vector<int> comps;    ///< of q and k
  std::vector<int> v_comps;  ///< of v (and o)
  bool spare_pages = true;
};

std::vector<int> iota_of(int n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  std::iota(out.begin(), out.end(), 0);
  return out;
}

Kept all_of(const AttentionCase& c) {
  return {std::vector<bool>(c.seqs.size(), true),
          c.seqs,
          std::vector<std::int64_t>(c.seqs.size(), 0),
          iota_of(c.heads_kv),
          iota_of(c.heads_q / c.heads_kv),
          iota_of(c.head_dim_qk),
          iota_of(c.head_dim_v),
          true};
}

AttentionCase reduced(const AttentionCase& c, const Kept& kept) {
  const int group = c.heads_q / c.heads_kv;
  AttentionCase out = c.without_sequences();
  out.heads_kv = static_cast<int>(kept.kv_heads.size());
  out.heads_q = out.heads_kv * static_cast<int>(kept.group_heads.size());
  out.head_dim_qk = static_cast<int>(kept.comps.size());
  out.head_dim_v = static_cast<int>(kept.v_comps.size());
  std::vector<int> q_heads;
  for (int g : kept.kv_heads)
    for (int h : kept.group_heads) q_heads.push_back(g * group + h);
  if (!c.sinks.empty()) {
    out.sinks.clear();
    for (int h : q_heads) out.sinks.push_back(c.sinks[static_cast<std::size_t>(h)]);
  }
  if (!c.alibi_slopes.empty()) {
    out.alibi_slopes.clear();
    for (int h : q_heads) out.alibi_slopes.push_back(c.alibi_slopes[static_cast<std::size_t>(h)]);
  }
  const auto take = [&](std::vector<float>& to, const std::vector<float>& from, std::int64_t token,
                        int heads_from, const std::vector<int>& heads, bool v) {
    const int dim = v ? c.head_dim_v : c.head_dim_qk;
    for (int h : heads)
      for (int d : v ? kept.v_comps : kept.comps)
        to.push_back(from[static_cast<std::size_t>((token * heads_from + h) * dim + d)]);
  };
  std::vector<bool> physical_used(c.page_order.size(), false);
  std::vector<std::int64_t> physical;  // the kept logical pages' physical ids, in order
  std::int64_t logical = 0;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t pages = c.pages_of(s);
    for (std::int64_t p = 0; p < pages; ++p)
      physical_used[static_cast<std::size_t>(c.page_order[logical + p])] = true;
    if (kept.keep[s]) {
      const AttentionSequence l = kept.lens[s];
      out.seqs.push_back(l);
      for (std::int64_t i = 0; i < l.q_len; ++i) {
        take(out.q, c.q, c.q_start(s) + i, c.heads_q, q_heads, false);
        if (!c.dout.empty()) take(out.dout, c.dout, c.q_start(s) + i, c.heads_q, q_heads, true);
      }
      for (std::int64_t j = kept.first_key[s]; j < kept.first_key[s] + l.k_len; ++j) {
        take(out.k, c.k, c.k_start(s) + j, c.heads_kv, kept.kv_heads, false);
        take(out.v, c.v, c.k_start(s) + j, c.heads_kv, kept.kv_heads, true);
      }
      if (c.page_size > 0)
        for (std::int64_t p = 0; p < (l.k_len + c.page_size - 1) / c.page_size; ++p)
          physical.push_back(c.page_order[logical + p]);
    }
    logical += pages;
  }
  if (c.page_size > 0) {
    if (kept.spare_pages)
      for (std::size_t p = 0; p < physical_used.size(); ++p)
        if (!physical_used[p]) physical.push_back(static_cast<std::int64_t>(p));
    // Rank-compress the physical ids: the pages keep their relative order, logical ones first.
    std::vector<std::int64_t> sorted = physical;
    std::sort(sorted.begin(), sorted.end());
    for (std::int64_t& p : physical)
      p = std::lower_bound(sorted.begin(), sorted.end(), p) - sorted.begin();
    out.page_order = physical;
  }
  return out;
}

/// Offers, for the list `field` of what is kept (heads, components), each single element, then
/// the first half, then one element fewer at a time.
void reduce_list(const AttentionCase& smallest, const Reduction<AttentionCase>& r,
                 std::vector<int> Kept::*field, bool components_together = false) {
  // components_together: v keeps the components q and k keep, so that equal dims stay equal
  const auto keep_v_too = [&](Kept& k) {
    if (components_together) k.v_comps = k.comps;
  };
  const std::size_t n = (all_of(smallest).*field).size();
  for (std::size_t i = 0; n > 1 && i < n && !r.out_of_time(); ++i) {
    Kept k = all_of(smallest);
    k.*field = {(k.*field)[i]};
    keep_v_too(k);
    if (r.accept(reduced(smallest, k))) return;
  }
  if (n > 2 && !r.out_of_time()) {
    Kept k = all_of(smallest);
    (k.*field).resize(n / 2);
    keep_v_too(k);
    if (r.accept(reduced(smallest, k))) return;
  }
  // Then one element fewer at a time, while that still fails.
  for (bool progress = true; progress && !r.out_of_time();) {
    progress = false;
    const std::size_t now = (all_of(smallest).*field).size();
    for (std::size_t i = 0; now > 1 && i < now && !progress && !r.out_of_time(); ++i) {
      Kept k = all_of(smallest);
      (k.*field).erase((k.*field).begin() + static_cast<std::ptrdiff_t>(i));
      keep_v_too(k);
      progress = r.accept(reduced(smallest, k));
    }
  }
}

/// The longest step by which the reductions shorten a sequence's keys or queries at once.
constexpr std::int64_t kLongestStep = 4;

/// The values a redrawn tensor takes its values from: those of `values` (what the generator drew
/// for that tensor), their negations, halves and doubles, each where it is a finite value of the
/// tensor's type t (fp8's included): values of the tensor's scale, a small case's few values made
/// many, which a rounding that shows on few inputs needs (one key has one value of k).
std::vector<float> redraw_pool(const std::vector<float>& values, DType t) {
  std::vector<float> pool;
  for (const float x : values)
    for (const float y : {x, -x, x / 2, x * 2})
      if (std::isfinite(y) && is_value_of(t, y)) pool.push_back(y);
  return pool;
}

/// c with the values of each of its tensors (q, k, v, dout) drawn again by `rng` from
/// redraw_pool of that tensor in `from` (the case c was reduced from): the shape, the mask and
/// the modifiers stay.
AttentionCase with_values_redrawn(AttentionCase c, const AttentionCase& from,
                                  std::mt19937_64& rng) {
  const auto redraw = [&rng](std::vector<float>& t, const std::vector<float>& pool) {
    if (pool.empty()) return;
    std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
    for (float& x : t) x = pool[pick(rng)];
  };
  redraw(c.q, redraw_pool(from.q, from.in_type));
  redraw(c.k, redraw_pool(from.k, from.kv_storage()));
  redraw(c.v, redraw_pool(from.v, from.kv_storage()));
  redraw(c.dout, redraw_pool(from.dout, from.in_type));
  return c;
}

/// The last resort of the reductions: a failure that hangs on its values' roundings (a result
/// one ulp off, as a kernel with its own exp gives it on some inputs only) fails on none of the
/// structural reductions' candidates above, which keep every other value; the same failure is
/// usually there at the smaller shape with other values. So each dimension one smaller (a
/// component of every head, a key or a query of a sequence, a sequence, a kv head, a query head
/// of each group) is tried with its values drawn again (with_values_redrawn) a few times, from a
/// fixed seed: the same case shrinks the same way in every run.
void reduce_with_values_redrawn(const AttentionCase& smallest, const Reduction<AttentionCase>& r) {
  // Draws a smaller shape gets: each is one judgement of the law, and the shrink budget bounds
  // them all (r.out_of_time); 64 left the device's stale_max_after_prefix at head_dim 5 on the
  // small case's own values (reports/gpu/2026-12-06-suite-5), 128 on the wider pool took it to 1.
  constexpr int kDraws = 128;
  std::mt19937_64 rng(20261206);
  const auto try_smaller = [&](const auto& shrink) {
    for (int draw = 0; draw < kDraws && !r.out_of_time(); ++draw) {
      Kept k = all_of(smallest);
      if (!shrink(k)) return false;
      if (r.accept(with_values_redrawn(reduced(smallest, k), smallest, rng))) return true;
    }
    return false;
  };
  const auto drop_last = [](std::vector<int>& list) {
    if (list.size() <= 1) return false;
    list.pop_back();
    return true;
  };
  for (bool progress = true; progress && !r.out_of_time();) {
    progress = false;
    if (smallest.head_dim_qk == smallest.head_dim_v)
      progress |= try_smaller([&](Kept& k) {
        if (!drop_last(k.comps)) return false;
        k.v_comps = k.comps;
        return true;
      });
    else
      progress |= try_smaller([&](Kept& k) { return drop_last(k.comps); }) ||
                  try_smaller([&](Kept& k) { return drop_last(k.v_comps); });
    // A length 1 to kLongestStep shorter (as the structural reductions step: a failure that
    // needs its length in some residue class fails at no length one shorter), the first step
    // that fails taken.
    for (std::size_t s = 0; s < smallest.seqs.size(); ++s)
      for (const bool keys : {true, false}) {
        bool shorter = false;
        for (std::int64_t step = 1; step <= kLongestStep && !shorter; ++step)
          shorter = try_smaller([&](Kept& k) {
            std::int64_t& len = keys ? k.lens[s].k_len : k.lens[s].q_len;
            return len - step >= 1 && (len -= step, true);
          });
        progress |= shorter;
      }
    progress |= try_smaller([&](Kept& k) {
      if (k.keep.size() <= 1) return false;
      k.keep.back() = false;
      return true;
    });
    progress |= try_smaller([&](Kept& k) { return drop_last(k.kv_heads); });
    progress |= try_smaller([&](Kept& k) { return drop_last(k.group_heads); });
  }
}

/// A value of the case's scale: an integer of [-64, 64] over 16, times 2^e (exact in bf16 and
/// f16 for |e| <= 4).
float draw_value(int e) {
  return std::ldexp(static_cast<float>(*rc::gen::inRange(-64, 65)) / 16.0f, e);
}

/// A sink (docs/semantics.md §9): mostly k/8 in [-4, 4], among the scores; else from the whole
/// finite range the kind accepts, where a kernel's rounding of m - z grows with the sink: ±64,
/// ±1000, or a magnitude of 24 bits 2^e m, e in [0, 127), either sign.
float draw_sink() {
  switch (*rc::gen::weightedElement<int>({{6, 0}, {1, 1}, {1, 2}})) {
    case 0:
      return static_cast<float>(*rc::gen::inRange(-32, 33)) / 8.0f;
    case 1:
      return *rc::gen::elementOf(std::vector<float>{64.0f, -64.0f, 1000.0f, -1000.0f});
    default: {
      const float m = 1.0f + static_cast<float>(*rc::gen::inRange(0, 1 << 23)) * 0x1p-23f;
      return std::ldexp(*rc::gen::arbitrary<bool>() ? -m : m, *rc::gen::inRange(0, 127));
    }
  }
}

/// c's k and v stored in the fp8 type t with its scales: each value rounded to t (exact: 4 or 3
/// significant bits), after the tensor moves by 2^shift (drawn per tensor in a quarter of the
/// cases, 0 otherwise: the stored values from t's subnormals to its largest, which the values
/// draw_value gives, |x| in [2^-7, 32], reach only near 1) and saturates at t's largest finite
/// value (never e4m3's overflow NaN). v's true values stay within half the in type's largest,
/// so that no o overflows it (an f16 o of e5m2 values could).
void with_fp8_kv(AttentionCase& c, DType t) {
  c.kv_type = t;
  c.k_scale = *rc::gen::elementOf(kKvScales);
  c.v_scale = *rc::gen::elementOf(kKvScales);
  const bool e4m3 = t == DType::E4M3;
  const auto store = [&](std::vector<float>& x, float largest) {
    const int shift = *rc::gen::weightedElement<bool>({{3, false}, {1, true}})
                          ? *rc::gen::inRange(e4m3 ? -10 : -12, e4m3 ? 5 : 12)
                          : 0;
    for (float& v : x) v = round_to(t, std::clamp(std::ldexp(v, shift), -largest, largest));
  };
  store(c.k, max_finite_of(t));
  store(c.v, std::min(max_finite_of(t), max_finite_of(c.in_type) / 2 / c.v_scale));
}

}  // namespace

rc::Gen<AttentionCase> law_cases(const AttentionKernel& k, const AttentionLaw& law) {
  // The poison law needs memory a case does not attend to: keys outside every query's window
  // (a window bounded on the left) and unused page slots; its cases have both where declared.
  const bool poison = law.name == "poison";
  // The empty_rows law of a kernel that takes no sequence without keys needs a mask that leaves
  // rows or keys without a partner: a window bounded on the left where declared, as poison's.
  const bool outside = poison || (law.name == "empty_rows" && k.min_k_len() > 0);
  // The batch law needs sequences to leave out and reorder: two at least.
  const int fewest_sequences = law.name == "batch_invariance" ? 2 : 1;
  // Chunked prefill needs a mask that hides the keys right of each query's diagonal (causal, or
  // a window bounded by 0 on the right), and it and prefill_decode queries to chunk: two at
  // least in the first sequence.
  const bool chunked = law.name == "chunked_prefill";
  const std::int64_t fewest_queries = chunked || law.name == "prefill_decode" ? 2 : 1;
  // The cascade law needs a key prefix every query sees: no window (a causal mask or none), no
  // sinks and no ALiBi (attention_cascade_law.cpp says why).
  const bool cascade = law.name == "cascade";
  return rc::gen::exec([&k, poison, outside, fewest_sequences, chunked, fewest_queries, cascade] {
    AttentionCase c;
    c.in_type = *rc::gen::elementOf(k.in_types());
    const int batch = *rc::gen::inRange(fewest_sequences, 4);
    const bool long_keys = *rc::gen::weightedElement<bool>({{4, false}, {1, true}});
    const std::int64_t max_k = long_keys ? 80 : 12;
    c.seqs.clear();
    const std::int64_t min_k = std::max<std::int64_t>(k.min_k_len(), 1);
    AttentionSequence first{*rc::gen::inRange<std::int64_t>(fewest_queries, 6),
                            *rc::gen::inRange<std::int64_t>(min_k, std::max(max_k, min_k) + 1)};
    for (int s = 0; s < batch; ++s)
      c.seqs.push_back(k.varlen() && s > 0
                           ? AttentionSequence{*rc::gen::inRange<std::int64_t>(1, 6),
                                               *rc::gen::inRange<std::int64_t>(
                                                   k.min_k_len(), std::max(max_k, min_k) + 1)}
                           : first);
    c.heads_kv = *rc::gen::inRange(1, 3);
    c.heads_q = c.heads_kv * (k.gqa() ? *rc::gen::elementOf(std::vector<int>{1, 2, 3}) : 1);
    const std::vector<int> dims =
        k.head_dims().empty() ? std::vector<int>{1, 2, 3, 4, 5, 8, 16} : k.head_dims();
    c.head_dim_qk = c.head_dim_v = *rc::gen::elementOf(dims);
    // v's own head_dim in a quarter of the cases: the rest keep the common shape, whose
    // counterexamples shrink q/k's and v's components together.
    if (!k.v_head_dims().empty() && *rc::gen::weightedElement<bool>({{3, false}, {1, true}}))
      c.head_dim_v = *rc::gen::elementOf(k.v_head_dims());
    c.scale = *rc::gen::elementOf(
        std::vector<float>{1.0f, 0.5f, 0.125f, 2.0f, 1.0f / std::sqrt(float(c.head_dim_qk))});
    MaskKind mask =
        outside && k.supports(MaskKind::Window) ? MaskKind::Window : *rc::gen::elementOf(k.masks());
    if (chunked && mask != MaskKind::Causal && mask != MaskKind::Window)
      mask = k.supports(MaskKind::Causal) ? MaskKind::Causal : MaskKind::Window;
    if (cascade && mask == MaskKind::Window)
      mask = k.supports(MaskKind::Causal) ? MaskKind::Causal : MaskKind::None;
    c.mask.kind = mask;
    c.mask.align = k.mask_align();
    if (mask != MaskKind::None && k.square_masks())
      for (AttentionSequence& s : c.seqs) s.q_len = s.k_len;  // (varlen or not, it stays so)
    if (mask == MaskKind::Window) {
      c.mask.window_left = *rc::gen::inRange<std::int64_t>(outside ? 0 : -1, 5);
      c.mask.window_right = chunked ? 0 : *rc::gen::inRange<std::int64_t>(-1, 4);
    }
    // The empty_rows law of a kernel that takes no sequence without keys judges the rows its
    // mask leaves without a key. Under a bottom-right mask (causal, or a window bounded on the
    // right, reaching `right` keys past the diagonal) those are the first q_len - k_len - right
    // rows, whose window ends left of the first key (a window unbounded on the right keeps every
    // key from its left bound on: no row of it is empty). So the window is bounded on the right,
    // and the first sequence gets few keys and 1 ... 4 queries more than its keys and the
    // window's reach.
    if (outside && !poison && mask != MaskKind::None && k.mask_align() == MaskAlign::BottomRight &&
        !k.square_masks()) {
      AttentionSequence& s = c.seqs[0];
      if (mask == MaskKind::Window && c.mask.window_right < 0) c.mask.window_right = 0;
      const std::int64_t reach = mask == MaskKind::Window ? c.mask.window_right : 0;
      s.k_len = *rc::gen::inRange<std::int64_t>(min_k, min_k + 3);
      s.q_len = s.k_len + reach + *rc::gen::inRange<std::int64_t>(1, 5);
      if (!k.varlen())
        for (AttentionSequence& other : c.seqs) other = s;
    }
    if (k.writes_lse()) c.base = *rc::gen::elementOf(k.lse_bases());
    if (k.softcap() && *rc::gen::arbitrary<bool>())
      c.softcap = *rc::gen::elementOf(std::vector<float>{1.0f, 5.0f, 20.0f, 50.0f});
    if (k.alibi() && !cascade &&
        *rc::gen::arbitrary<bool>())  // ALiBi's 2^(-8h/H), and slopes of 24 bits
      for (int h = 0; h < c.heads_q; ++h)
        c.alibi_slopes.push_back(*rc::gen::elementOf(kAlibiSlopes));
    if (k.sinks() && !cascade && *rc::gen::arbitrary<bool>())
      for (int h = 0; h < c.heads_q; ++h) c.sinks.push_back(draw_sink());
    const bool paged =
        !k.page_sizes().empty() && (k.paged_only() || poison || *rc::gen::arbitrary<bool>());
    if (paged) {
      c.page_size = *rc::gen::elementOf(k.page_sizes());
      c.page_order.resize(static_cast<std::size_t>(c.logical_pages() + *rc::gen::inRange(0, 3)));
      std::iota(c.page_order.begin(), c.page_order.end(), std::int64_t{0});
      // A permutation drawn as RapidCheck can shrink it: a swap of each page with a later one.
      for (std::size_t i = 0; i + 1 < c.page_order.size(); ++i)
        std::swap(c.page_order[i], c.page_order[*rc::gen::inRange(i, c.page_order.size())]);
    }
    const int e = *rc::gen::inRange(-3, 4);
    const auto fill = [&](std::vector<float>& x, std::size_t n) {
      x.resize(n);
      for (float& v : x) v = round_to(c.in_type, draw_value(e));
    };
    fill(c.q, static_cast<std::size_t>(c.total_q() * c.heads_q * c.head_dim_qk));
    fill(c.k, static_cast<std::size_t>(c.total_k() * c.heads_kv * c.head_dim_qk));
    fill(c.v, static_cast<std::size_t>(c.total_k() * c.heads_kv * c.head_dim_v));
    if (k.backward())
      fill(c.dout, static_cast<std::size_t>(c.total_q() * c.heads_q * c.head_dim_v));
    // A split parameter of the declared ones, or the kernel's own choice (0); drawn last, so
    // that a kernel's other draws are those of a kernel without splits.
    if (!k.split_values().empty() && *rc::gen::arbitrary<bool>())
      c.kv_splits = *rc::gen::elementOf(k.split_values());
    // fp8 K/V where declared (every case of a kernel that takes fp8 only, half of them
    // otherwise), drawn after everything else: a kernel without kv_types draws what it drew
    // before them.
    if (!k.kv_types().empty() && (k.kv_types_only() || *rc::gen::arbitrary<bool>()))
      with_fp8_kv(c, *rc::gen::elementOf(k.kv_types()));
    return c;
  });
}

std::vector<AttentionCase> declared_cases(const AttentionKernel& k, const AttentionLaw& law) {
  // The ragged last tile at every residue of each declared tile size (tile_sizes): one sequence
  // of T + r queries and keys, causal where declared (a masked tail and a ragged one together),
  // one head, the first declared type and head_dim, values k/16 (|k| <= 64) from a generator
  // seeded by (T, r): the same cases in every run.
  if (law.name != "accuracy" && law.name != "determinism") return {};
  std::vector<AttentionCase> out;
  for (const int tile : k.tile_sizes())
    for (int r = 0; r < tile; ++r) {
      std::mt19937_64 rng(static_cast<std::uint64_t>(tile) * 1000003u + static_cast<unsigned>(r));
      std::uniform_int_distribution<int> value(-64, 64);
      AttentionCase c;
      const std::int64_t n = std::max<std::int64_t>(tile + r, k.min_k_len());
      c.seqs = {{n, n}};
      c.in_type = k.in_types().front();
      c.head_dim_qk = c.head_dim_v = k.head_dims().empty() ? 4 : k.head_dims().front();
      if (!k.v_head_dims().empty() && k.head_dims().empty()) c.head_dim_v = k.v_head_dims().front();
      c.mask.kind = k.supports(MaskKind::Causal) ? MaskKind::Causal : k.masks().front();
      if (c.mask.kind == MaskKind::Window) c.mask.window_left = c.mask.window_right = 3;
      c.mask.align = k.mask_align();
      if (k.writes_lse()) c.base = k.lse_bases().front();
      c.scale = 0.5f;
      const auto fill = [&](std::vector<float>& x, std::int64_t count) {
        x.resize(static_cast<std::size_t>(count));
        for (float& v : x) v = round_to(c.in_type, static_cast<float>(value(rng)) / 16.0f);
      };
      fill(c.q, n * c.head_dim_qk);
      fill(c.k, n * c.head_dim_qk);
      fill(c.v, n * c.head_dim_v);
      if (k.backward()) fill(c.dout, n * c.head_dim_v);
      if (k.kv_types_only()) {  // its first fp8 type, scales of one and of two bits
        c.kv_type = k.kv_types().front();
        c.k_scale = 0.5f;
        c.v_scale = 1.5f;
        for (auto* x : {&c.k, &c.v})
          for (float& v : *x) v = round_to(*c.kv_type, v);
      }
      if (k.paged_only()) {
        c.page_size = k.page_sizes().front();
        c.page_order.resize(static_cast<std::size_t>(c.logical_pages()));
        std::iota(c.page_order.begin(), c.page_order.end(), std::int64_t{0});
      }
      out.push_back(std::move(c));
    }
  return out;
}

void reduce_case(const AttentionKernel&, const AttentionCase& smallest,
                 const Reduction<AttentionCase>& r) {
  // Each candidate is built from the current smallest case (r.accept replaces it in place).
  for (std::size_t s = smallest.seqs.size();
       s-- > 0 && smallest.seqs.size() > 1 && !r.out_of_time();) {
    Kept k = all_of(smallest);
    k.keep[s] = false;
    r.accept(reduced(smallest, k));
  }
  // The score modifiers a failure may not need, each dropped on its own.
  const auto drop = [&](bool present, void (*without)(AttentionCase&)) {
    if (!present || r.out_of_time()) return;
    AttentionCase c = smallest;
    without(c);
    r.accept(c);
  };
  drop(!smallest.sinks.empty(), [](AttentionCase& c) { c.sinks.clear(); });
  drop(!smallest.alibi_slopes.empty(), [](AttentionCase& c) { c.alibi_slopes.clear(); });
  drop(smallest.softcap > 0, [](AttentionCase& c) { c.softcap = 0; });
  drop(smallest.kv_splits != 0, [](AttentionCase& c) { c.kv_splits = 0; });
  // fp8 K/V keep their type and stored values; a scale a failure does not need becomes 1.
  drop(smallest.k_scale != 1, [](AttentionCase& c) { c.k_scale = 1; });
  drop(smallest.v_scale != 1, [](AttentionCase& c) { c.v_scale = 1; });
  // A smaller split parameter (a halved one the kernel does not declare is not judged).
  for (int v = smallest.kv_splits / 2; v > 0 && !r.out_of_time(); v /= 2) {
    AttentionCase c = smallest;
    c.kv_splits = v;
    if (!r.accept(c)) break;
  }
  reduce_list(smallest, r, &Kept::kv_heads);
  reduce_list(smallest, r, &Kept::group_heads);
  // q/k's components and v's: together while the dims are equal (a kernel may need them so),
  // then each on its own.
  if (smallest.head_dim_qk == smallest.head_dim_v) reduce_list(smallest, r, &Kept::comps, true);
  reduce_list(smallest, r, &Kept::comps);
  reduce_list(smallest, r, &Kept::v_comps);
  // Lengths: the last 1, 2, 3 or 4 keys (queries) dropped, the first such length that still
  // fails taken; for keys, the first key dropped instead. Steps of more than one: a failure that
  // needs the length in some residue class (a split size, a page size, a tile of up to 4 that
  // must end ragged) fails at no length one smaller, and would stop the shrinking there.
  bool progress = true;
  while (progress && !r.out_of_time()) {
    progress = false;
    for (std::size_t s = 0; s < smallest.seqs.size() && !r.out_of_time(); ++s)
      for (const bool keys : {true, false}) {
        const std::int64_t shortest = keys ? 0 : 1;
        bool shorter = false;
        for (std::int64_t step = 1; step <= kLongestStep && !shorter && !r.out_of_time(); ++step) {
          Kept k = all_of(smallest);
          std::int64_t& len = keys ? k.lens[s].k_len : k.lens[s].q_len;
          if (len - step < shortest) break;
          len -= step;
          shorter = r.accept(reduced(smallest, k));
          if (!shorter && keys && step == 1) {  // the first key dropped instead of the last
            k.first_key[s] = 1;
            shorter = r.accept(reduced(smallest, k));
          }
        }
        progress |= shorter;
      }
  }
  if (smallest.page_size > 0 && !r.out_of_time()) {
    Kept k = all_of(smallest);
    k.spare_pages = false;
    r.accept(reduced(smallest, k));
  }
  reduce_with_values_redrawn(smallest, r);
}

}  // namespace osvs::testbed
