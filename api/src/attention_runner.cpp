#include "osvs/api/attention_runner.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "guarded_output.h"

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

/// K or V (dim components a head) in the kernel's layout: contiguous as the case holds it, or
/// paged: key j of sequence s at slot j % page_size of physical page
/// page_order[first logical page of s + j / page_size]; every other slot holds `fill`.
Bytes staged_kv(const AttentionCase& c, const std::vector<float>& x, int dim, float fill) {
  if (c.page_size == 0) return staged(c.in_type, x.data(), x.size());
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
  return staged(c.in_type, paged.data(), paged.size());
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
  const std::vector<Bytes> in0 = in;
  const std::size_t o_n = static_cast<std::size_t>(p.total_q) * c.heads_q * c.head_dim_v;
  const std::size_t lse_n = k.writes_lse() ? static_cast<std::size_t>(p.total_q) * c.heads_q : 0;
  Bytes o = guarded_output(p.out_type, o_n), lse = guarded_output(DType::F32, lse_n);
  const bool paged = c.page_size > 0;
  const auto launch = [&](const std::vector<unsigned char*>& image, void* stream) {
    AttentionProblem q = p;
    q.q_ptr = image[0];
    q.k_ptr = image[1];
    q.v_ptr = image[2];
    q.cu_seqlens_q = reinterpret_cast<const std::int32_t*>(image[3]);
    q.cu_seqlens_k = reinterpret_cast<const std::int32_t*>(image[4]);
    q.block_table = paged ? reinterpret_cast<const std::int32_t*>(image[5]) : nullptr;
    q.sinks = c.sinks.empty() ? nullptr : reinterpret_cast<const float*>(image[6]);
    q.alibi_slopes = c.alibi_slopes.empty() ? nullptr : reinterpret_cast<const float*>(image[7]);
    q.o_ptr = image[8] + kGuardBytes;
    q.lse = k.writes_lse() ? reinterpret_cast<float*>(image[9] + kGuardBytes) : nullptr;
    q.stream = stream;
    k(q);
  };
  const std::string who = "attention kernel '" + k.name() + "' ";
  launch_on_images("attention kernel '" + k.name() + "'", k.where() == Where::Device,
                   {&in[0], &in[1], &in[2], &in[3], &in[4], &in[5], &in[6], &in[7], &o, &lse},
                   launch);
  const char* inputs[] = {"q",           "k",     "v",           "cu_seqlens_q", "cu_seqlens_k",
                          "block_table", "sinks", "alibi_slopes"};
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != in0[i]) throw KernelFailure(who + "modified its input " + inputs[i]);
  check_guard_zones(who, "o", p.out_type, o);
  check_guard_zones(who, "lse", DType::F32, lse);
  AttentionOutputs out;
  out.o.resize(o_n);
  const std::size_t es = size_of(p.out_type);
  for (std::size_t i = 0; i < o_n; ++i) {
    const unsigned char* at = o.data() + kGuardBytes + i * es;
    if (is_sentinel(p.out_type, at)) {
      const std::size_t dv = static_cast<std::size_t>(c.head_dim_v);
      const std::size_t token = i / (dv * c.heads_q), head = i / dv % c.heads_q;
      throw KernelFailure(who + "left o[token " + std::to_string(token) + "][head " +
                          std::to_string(head) + "][" + std::to_string(i % dv) + "] unwritten");
    }
    load_from(p.out_type, at, &out.o[i], 1);
  }
  out.lse.resize(lse_n);
  for (std::int64_t t = 0; t < p.total_q && lse_n > 0; ++t)
    for (int h = 0; h < c.heads_q; ++h) {
      const unsigned char* at =
          lse.data() + kGuardBytes + static_cast<std::size_t>(p.lse_offset(t, h)) * sizeof(float);
      if (is_sentinel(DType::F32, at))
        throw KernelFailure(who + "left lse[token " + std::to_string(t) + "][head " +
                            std::to_string(h) + "] unwritten");
      std::memcpy(&out.lse[static_cast<std::size_t>(t * c.heads_q + h)], at, sizeof(float));
    }
  return out;
}

}  // namespace osvs
