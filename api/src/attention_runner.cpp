#include "osvs/api/attention_runner.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "guarded_output.h"
#include "osvs/api/attention_laws.h"  // exact_attention: a backward kernel's o and lse

namespace osvs {
namespace {

using Bytes = std::vector<unsigned char>;

/// n values of x (floats exact in t) as t's bits.
Bytes staged(DType t, const float* x, std::size_t n) {
  Bytes out(std::max<std::size_t>(n, 1) * size_of(t), 0);
  if (n > 0) store_as(t, x, out.data(), static_cast<std::int64_t>(n));
  return out;
}

template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes out(std::max<std::size_t>(v.size(), 1) * sizeof(T), 0);
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * sizeof(T));
  return out;
}

/// K or V (dim components a head) in the kernel's layout and in c's K/V storage type (the in
/// type or its fp8 type): contiguous as the case holds it, or paged: key j of sequence s at slot
/// j % page_size of physical page page_order[first logical page of s + j / page_size]; every
/// other slot holds `fill` (stored in that type: the poison law gives one it represents).
Bytes staged_kv(const AttentionCase& c, const std::vector<float>& x, int dim, float fill) {
  if (c.page_size == 0) return staged(c.kv_storage(), x.data(), x.size());
  const std::size_t token = static_cast<std::size_t>(c.heads_kv) * dim;
  const std::size_t page = static_cast<std::size_t>(c.page_size) * token;
  std::vector<float> paged(c.page_order.size() * page, fill);
  std::int64_t logical = 0;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    const std::int64_t start = c.k_start(s);
    for (std::int64_t j = 0; j < c.seqs[s].k_len; ++j) {
      const auto physical = static_cast<std::size_t>(c.page_order[logical + j / c.page_size]);
      std::copy_n(
          x.begin() + static_cast<std::ptrdiff_t>((start + j) * token), token,
          paged.begin() + static_cast<std::ptrdiff_t>(physical * page + (j % c.page_size) * token));
    }
    logical += c.pages_of(s);
  }
  return staged(c.kv_storage(), paged.data(), paged.size());
}

/// The inputs every launch shares, from their images 0 ... 7: q, k, v, the offsets, the block
/// table (paged), the sinks and the ALiBi slopes (null where the case has none).
void bind_inputs(AttentionProblem& q, const std::vector<unsigned char*>& image,
                 const AttentionCase& c) {
  q.q_ptr = image[0];
  q.k_ptr = image[1];
  q.v_ptr = image[2];
  q.cu_seqlens_q = reinterpret_cast<const std::int32_t*>(image[3]);
  q.cu_seqlens_k = reinterpret_cast<const std::int32_t*>(image[4]);
  q.block_table = c.page_size > 0 ? reinterpret_cast<const std::int32_t*>(image[5]) : nullptr;
  q.sinks = c.sinks.empty() ? nullptr : reinterpret_cast<const float*>(image[6]);
  q.alibi_slopes = c.alibi_slopes.empty() ? nullptr : reinterpret_cast<const float*>(image[7]);
}

/// KernelFailure naming the first input the launch changed (`in` against its copy `before`, in
/// the order of the images: the shared eight, then a backward's dout, o and lse).
void check_inputs_unchanged(const std::string& who, const std::vector<Bytes>& in,
                            const std::vector<Bytes>& before) {
  static const char* const names[] = {
      "q",    "k", "v",  "cu_seqlens_q", "cu_seqlens_k", "block_table", "sinks", "alibi_slopes",
      "dout", "o", "lse"};
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != before[i]) throw KernelFailure(who + "modified its input " + names[i]);
}

/// The forward's o (in the out type) and lse (f32, in c's base, laid out as k declares, an empty
/// row's as k declares it) as osvs's oracle rounds them: a backward kernel's inputs.
std::pair<Bytes, Bytes> forward_of(const AttentionKernel& k, const AttentionCase& c,
                                   const AttentionProblem& p) {
  const AttentionExact e = exact_attention(c, p.out_type);
  Bytes lse;
  if (k.writes_lse()) {
    std::vector<float> laid(static_cast<std::size_t>(p.total_q * c.heads_q));
    const float empty = k.empty_row_lse() == EmptyRowLse::PosInf ? INFINITY : -INFINITY;
    for (std::int64_t t = 0; t < p.total_q; ++t)
      for (int h = 0; h < c.heads_q; ++h) {
        const auto row = static_cast<std::size_t>(t * c.heads_q + h);
        laid[static_cast<std::size_t>(p.lse_offset(t, h))] =
            e.kept[row] == 0 ? empty : e.lse_rounded[row];
      }
    lse = bytes_of(laid);
  }
  return {staged(p.out_type, e.o_rounded.data(), e.o_rounded.size()), std::move(lse)};
}

/// The n elements of type t of a guarded output read back as floats; KernelFailure naming the
/// first one left unwritten (`where(i)`).
template <class Where>
std::vector<float> read_back(const std::string& who, const char* what, DType t, const Bytes& image,
                             std::size_t n, const Where& where) {
  check_guard_zones(who, what, t, image);
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* at = image.data() + kGuardBytes + i * size_of(t);
    if (is_sentinel(t, at)) throw KernelFailure(who + "left " + where(i) + " unwritten");
    load_from(t, at, &out[i], 1);
  }
  return out;
}

/// "dk[token 3][head 1][2]": element i of a [tokens, heads, dim] output.
std::string element_of(const char* what, std::size_t i, int heads, int dim) {
  const auto d = static_cast<std::size_t>(dim), h = static_cast<std::size_t>(heads);
  return std::string(what) + "[token " + std::to_string(i / (d * h)) + "][head " +
         std::to_string(i / d % h) + "][" + std::to_string(i % d) + "]";
}

/// An f32 output of one value a (token, head), laid out as p.lse_layout says, read back in
/// (token, head) order; KernelFailure naming the first one left unwritten.
std::vector<float> read_back_per_row(const std::string& who, const char* what, const Bytes& image,
                                     const AttentionProblem& p) {
  check_guard_zones(who, what, DType::F32, image);
  std::vector<float> out(static_cast<std::size_t>(p.total_q * p.heads_q));
  for (std::int64_t t = 0; t < p.total_q; ++t)
    for (int h = 0; h < p.heads_q; ++h) {
      const unsigned char* at =
          image.data() + kGuardBytes + static_cast<std::size_t>(p.lse_offset(t, h)) * sizeof(float);
      if (is_sentinel(DType::F32, at))
        throw KernelFailure(who + "left " + what + "[token " + std::to_string(t) + "][head " +
                            std::to_string(h) + "] unwritten");
      std::memcpy(&out[static_cast<std::size_t>(t * p.heads_q + h)], at, sizeof(float));
    }
  return out;
}

/// A backward kernel's launch on c (docs/semantics.md §9.4): q, k, v, dout and the forward's o
/// and lse in, dq, dk, dv, (declared) delta and (with sinks) dsinks out.
AttentionOutputs run_backward(const AttentionKernel& k, const AttentionCase& c, AttentionProblem p,
                              std::vector<Bytes> in) {
  const std::string who = "attention kernel '" + k.name() + "' ";
  p.backward = true;
  auto [o, lse] = forward_of(k, c, p);
  in.push_back(staged(c.in_type, c.dout.data(), c.dout.size()));
  in.push_back(std::move(o));
  in.push_back(k.writes_lse() ? std::move(lse) : Bytes(sizeof(float), 0));
  const std::vector<Bytes> in0 = in;
  const std::size_t delta_n =
      k.writes_delta() ? static_cast<std::size_t>(p.total_q) * c.heads_q : 0;
  const std::size_t dsinks_n = c.sinks.size();  // (heads_q with sinks, else 0)
  Bytes dq = guarded_output(c.in_type, c.q.size()), dk = guarded_output(c.in_type, c.k.size()),
        dv = guarded_output(c.in_type, c.v.size()), delta = guarded_output(DType::F32, delta_n),
        dsinks = guarded_output(DType::F32, dsinks_n);
  std::vector<std::vector<unsigned char>*> images;
  for (Bytes& b : in) images.push_back(&b);
  for (Bytes* b : {&dq, &dk, &dv, &delta, &dsinks}) images.push_back(b);
  const auto launch = [&](const std::vector<unsigned char*>& image, void* stream) {
    AttentionProblem q = p;
    bind_inputs(q, image, c);
    q.dout_ptr = image[8];
    q.o_ptr = image[9];
    q.lse = k.writes_lse() ? reinterpret_cast<float*>(image[10]) : nullptr;
    q.dq_ptr = image[11] + kGuardBytes;
    q.dk_ptr = image[12] + kGuardBytes;
    q.dv_ptr = image[13] + kGuardBytes;
    q.delta = k.writes_delta() ? reinterpret_cast<float*>(image[14] + kGuardBytes) : nullptr;
    q.dsinks = dsinks_n > 0 ? reinterpret_cast<float*>(image[15] + kGuardBytes) : nullptr;
    q.stream = stream;
    k(q);
  };
  launch_on_images("attention kernel '" + k.name() + "'", k.where() == Where::Device, images,
                   launch);
  check_inputs_unchanged(who, in, in0);
  AttentionOutputs out;
  out.dq = read_back(who, "dq", c.in_type, dq, c.q.size(),
                     [&](std::size_t i) { return element_of("dq", i, c.heads_q, c.head_dim_qk); });
  out.dk = read_back(who, "dk", c.in_type, dk, c.k.size(),
                     [&](std::size_t i) { return element_of("dk", i, c.heads_kv, c.head_dim_qk); });
  out.dv = read_back(who, "dv", c.in_type, dv, c.v.size(),
                     [&](std::size_t i) { return element_of("dv", i, c.heads_kv, c.head_dim_v); });
  if (delta_n > 0) out.delta = read_back_per_row(who, "delta", delta, p);
  if (dsinks_n > 0)
    out.dsinks = read_back(who, "dsinks", DType::F32, dsinks, dsinks_n,
                           [](std::size_t h) { return "dsinks[head " + std::to_string(h) + "]"; });
  return out;
}

}  // namespace

std::string undeclared_in(const AttentionKernel& k, const AttentionCase& c) {
  const auto& types = k.in_types();
  if (std::find(types.begin(), types.end(), c.in_type) == types.end())
    return std::string("in type ") + to_string(c.in_type);
  if (!k.supports(c.mask.kind)) return std::string("mask ") + to_string(c.mask.kind);
  if (c.mask.kind != MaskKind::None && c.mask.align != k.mask_align())
    return std::string("mask alignment ") + to_string(c.mask.align);
  if (c.heads_kv != c.heads_q && !k.gqa()) return "heads_kv < heads_q (gqa)";
  const auto& pages = k.page_sizes();
  if (c.page_size > 0 && std::find(pages.begin(), pages.end(), c.page_size) == pages.end())
    return "page size " + std::to_string(c.page_size);
  if (c.page_size == 0 && k.paged_only()) return "contiguous K/V";
  if (c.kv_type && !k.takes_kv_type(*c.kv_type))
    return std::string("K/V in ") + to_string(*c.kv_type) + " (kv_types)";
  if (!c.kv_type && k.kv_types_only()) return "K/V in the in type (it declares fp8 K/V only)";
  if (k.backward() && c.page_size > 0) return "paged K/V (a backward kernel reads contiguous K/V)";
  // (a batch without queries has an empty dout of its own)
  if (k.backward() && c.dout.empty() && c.total_q() > 0)
    return "a case without dout (a forward's case)";
  if (k.writes_lse() &&
      std::find(k.lse_bases().begin(), k.lse_bases().end(), c.base) == k.lse_bases().end())
    return std::string("lse base ") + to_string(c.base);
  if (c.softcap > 0 && !k.softcap()) return "a softcap";
  if (c.kv_splits != 0 && std::find(k.split_values().begin(), k.split_values().end(),
                                    c.kv_splits) == k.split_values().end())
    return "a split " + std::string(to_string(k.split_by())) + " of " + std::to_string(c.kv_splits);
  if (!c.sinks.empty() && !k.sinks()) return "attention sinks";
  if (!c.alibi_slopes.empty() && !k.alibi()) return "ALiBi slopes";
  const auto takes = [](const std::vector<int>& dims, int d) {
    return dims.empty() || std::find(dims.begin(), dims.end(), d) != dims.end();
  };
  if (!takes(k.head_dims(), c.head_dim_qk)) return "head_dim " + std::to_string(c.head_dim_qk);
  if (k.v_head_dims().empty() && c.head_dim_v != c.head_dim_qk)
    return "a head_dim of v of its own (" + std::to_string(c.head_dim_v) + ")";
  if (!takes(k.v_head_dims().empty() ? k.head_dims() : k.v_head_dims(), c.head_dim_v))
    return "head_dim_v " + std::to_string(c.head_dim_v);
  if (!k.varlen())
    for (const AttentionSequence& s : c.seqs)
      if (!(s == c.seqs.front())) return "sequences of different lengths (varlen)";
  for (const AttentionSequence& s : c.seqs) {
    if (s.k_len < k.min_k_len())
      return "a sequence of " + std::to_string(s.k_len) + " keys (min_k_len " +
             std::to_string(k.min_k_len()) + ")";
    if (k.square_masks() && c.mask.kind != MaskKind::None && s.q_len != s.k_len)
      return "a masked sequence of " + std::to_string(s.q_len) + " queries and " +
             std::to_string(s.k_len) + " keys (square_masks)";
  }
  return "";
}

bool runnable(const AttentionKernel& k, std::string* why_not) {
  return k.where() == Where::Host || device_available(why_not);
}

AttentionOutputs run_attention_kernel(const AttentionKernel& k, const AttentionCase& c,
                                      const AttentionFill& fill) {
  if (const std::string why = attention_case_problem(c); !why.empty())
    throw std::invalid_argument("attention case: " + why);
  if (const std::string what = undeclared_in(k, c); !what.empty())
    throw std::invalid_argument("attention kernel '" + k.name() + "' does not declare " + what);
  AttentionProblem p;
  p.batch = static_cast<int>(c.seqs.size());
  p.total_q = c.total_q();
  p.total_k = c.total_k();
  p.heads_q = c.heads_q;
  p.heads_kv = c.heads_kv;
  p.head_dim_qk = c.head_dim_qk;
  p.head_dim_v = c.head_dim_v;
  p.in_type = p.out_type = c.in_type;
  p.kv_type = c.kv_storage();
  p.k_scale = c.k_scale;
  p.v_scale = c.v_scale;
  p.scale = c.scale;
  p.softcap = c.softcap;
  p.mask = c.mask;
  p.base = c.base;
  p.lse_layout = k.lse_layout();
  p.page_size = c.page_size;
  p.kv_splits = c.kv_splits;
  p.num_pages = static_cast<int>(c.page_order.size());
  std::vector<std::int32_t> cu_q{0}, cu_k{0}, table;
  for (std::size_t s = 0; s < c.seqs.size(); ++s) {
    cu_q.push_back(static_cast<std::int32_t>(cu_q.back() + c.seqs[s].q_len));
    cu_k.push_back(static_cast<std::int32_t>(cu_k.back() + c.seqs[s].k_len));
    p.max_pages = std::max(p.max_pages, static_cast<int>(c.pages_of(s)));
  }
  if (c.page_size > 0) {
    // Row s of the block table: its sequence's physical pages, then 0 (never to be read).
    table.assign(c.seqs.size() * static_cast<std::size_t>(std::max(p.max_pages, 1)), 0);
    std::int64_t logical = 0;
    for (std::size_t s = 0; s < c.seqs.size(); ++s) {
      for (std::int64_t i = 0; i < c.pages_of(s); ++i)
        table[s * static_cast<std::size_t>(std::max(p.max_pages, 1)) + i] =
            static_cast<std::int32_t>(c.page_order[logical + i]);
      logical += c.pages_of(s);
    }
  }
  std::vector<Bytes> in{staged(c.in_type, c.q.data(), c.q.size()),
                        staged_kv(c, c.k, c.head_dim_qk, fill.unused_kv),
                        staged_kv(c, c.v, c.head_dim_v, fill.unused_kv),
                        bytes_of(cu_q),
                        bytes_of(cu_k),
                        bytes_of(table),
                        bytes_of(c.sinks),
                        bytes_of(c.alibi_slopes)};
  if (k.backward()) return run_backward(k, c, p, std::move(in));
  const std::vector<Bytes> in0 = in;
  const std::size_t o_n = static_cast<std::size_t>(p.total_q) * c.heads_q * c.head_dim_v;
  const std::size_t lse_n = k.writes_lse() ? static_cast<std::size_t>(p.total_q) * c.heads_q : 0;
  Bytes o = guarded_output(p.out_type, o_n), lse = guarded_output(DType::F32, lse_n);
  const auto launch = [&](const std::vector<unsigned char*>& image, void* stream) {
    AttentionProblem q = p;
    bind_inputs(q, image, c);
    q.o_ptr = image[8] + kGuardBytes;
    q.lse = k.writes_lse() ? reinterpret_cast<float*>(image[9] + kGuardBytes) : nullptr;
    q.stream = stream;
    k(q);
  };
  const std::string who = "attention kernel '" + k.name() + "' ";
  launch_on_images("attention kernel '" + k.name() + "'", k.where() == Where::Device,
                   {&in[0], &in[1], &in[2], &in[3], &in[4], &in[5], &in[6], &in[7], &o, &lse},
                   launch);
  check_inputs_unchanged(who, in, in0);
  AttentionOutputs out;
  out.o = read_back(who, "o", p.out_type, o, o_n,
                    [&](std::size_t i) { return element_of("o", i, c.heads_q, c.head_dim_v); });
  if (lse_n > 0) out.lse = read_back_per_row(who, "lse", lse, p);
  return out;
}

}  // namespace osvs
