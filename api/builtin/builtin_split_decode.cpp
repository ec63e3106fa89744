// osvs's split-KV decode kernel (kernels/include/osvs/kernels/attention/split_decode.h) as an
// entry of the attention kind: every query of every sequence is one decode problem of its
// sequence's kept keys (the mask applied as the kernel's masked keys), cut into splits of 4 keys
// (its own choice; a launch may ask for 4, 8 or 16: p.kv_splits, a split size) whose partials
// the merge-states kernel merges left to right. Only the CPU model is an entry so
// far: the CUDA executor stages host arrays itself, and an entry of it needs a device-side
// adapter of the runner's device pointers (not written yet).
//
// Its contract is declared with the tiled kernel's figures (tiled_attention.h: the same score,
// exp and rescale errors to first order, the merges' rescales counted as a tile's), which the
// accuracy law measures it against. That count holds for splits of 4 keys or more (a merge for
// at most every tile of 4), hence the split sizes it declares: no smaller ones.
#include <memory>

#include "builtin_split_decode.h"
#include "tiled_attention.h"

namespace osvs::builtin {
namespace {

constexpr std::int64_t kOwnSplitKeys = 4;

/// Splits of split_keys keys over kv_len, merged into split 0 left to right.
SplitPlan plan_of(std::int64_t kv_len, std::int64_t split_keys) {
  SplitPlan plan;
  plan.offsets = {0};
  do plan.offsets.push_back(std::min(plan.offsets.back() + split_keys, kv_len));
  while (plan.offsets.back() < kv_len);
  for (int s = 1; s < plan.splits(); ++s) plan.merges.push_back({0, s});
  return plan;
}

}  // namespace

void split_decode(AttentionExecutor& executor, const AttentionProblem& p) {
  const int group = p.heads_q / p.heads_kv, dqk = p.head_dim_qk, dv = p.head_dim_v;
  if (dqk != dv)
    throw std::invalid_argument("the split-KV decode kernel needs head_dim_qk == head_dim_v");
  for (int s = 0; s < p.batch; ++s) {
    const std::int64_t q0 = p.cu_seqlens_q[s], lq = p.cu_seqlens_q[s + 1] - q0;
    const std::int64_t k0 = p.cu_seqlens_k[s], lk = p.cu_seqlens_k[s + 1] - k0;
    for (std::int64_t i = 0; i < lq; ++i) {
      DecodeProblem d;
      d.batch = 1;
      d.heads = p.heads_q;
      d.head_dim = dqk;
      d.kv_len = lk;
      d.scale = p.scale;
      d.base = p.base;
      d.out = p.out_type;
      d.q.resize(static_cast<std::size_t>(p.heads_q) * dqk);
      for (std::size_t c = 0; c < d.q.size(); ++c)
        d.q[c] = detail::load_elem(p.in_type, p.q_ptr,
                                   (q0 + i) * p.heads_q * dqk + static_cast<std::int64_t>(c));
      d.k.resize(static_cast<std::size_t>(p.heads_q * lk * dqk));
      d.v.resize(d.k.size());
      for (int h = 0; h < p.heads_q; ++h)
        for (std::int64_t j = 0; j < lk; ++j) {
          std::int64_t token = k0 + j;
          if (p.page_size > 0)
            token = std::int64_t{p.block_table[s * p.max_pages + j / p.page_size]} * p.page_size +
                    j % p.page_size;
          for (int c = 0; c < dqk; ++c) {
            const std::int64_t at = (token * p.heads_kv + h / group) * dqk + c;
            const auto to = static_cast<std::size_t>((h * lk + j) * dqk + c);
            d.k[to] = detail::load_elem(p.in_type, p.k_ptr, at);
            d.v[to] = detail::load_elem(p.in_type, p.v_ptr, at);
          }
        }
      d.masked.resize(static_cast<std::size_t>(lk));
      for (std::int64_t j = 0; j < lk; ++j)
        d.masked[static_cast<std::size_t>(j)] = key_kept(p.mask, i, j, lq, lk) ? 0 : 1;
      const DecodeResult r =
          executor.split_decode(d, plan_of(lk, p.kv_splits > 0 ? p.kv_splits : kOwnSplitKeys));
      for (int h = 0; h < p.heads_q; ++h) {
        const std::int64_t row = (q0 + i) * p.heads_q + h;
        store_as(p.out_type, r.out.o.data() + h * dv,
                 static_cast<unsigned char*>(p.o_ptr) + row * dv * size_of(p.out_type), dv);
        if (p.lse != nullptr)
          p.lse[p.lse_offset(q0 + i, h)] = r.out.lse[static_cast<std::size_t>(h)];
      }
    }
  }
}

AttentionKernel declare_split_decode(const char* name, std::shared_ptr<AttentionExecutor> executor,
                                     Where where) {
  AttentionKernel k = declare_tiled_attention(name, nullptr, where);
  return k.run([executor](const AttentionProblem& p) { split_decode(*executor, p); })
      .softcap(false)
      .sinks(false)
      .alibi(false)
      .v_head_dims({})
      .kv_splits(KvSplit::Size, {4, 8, 16})
      .description("osvs's split-KV decode kernel: splits of 4 keys merged by merge-states");
}

namespace {

OSVS_REGISTER_ATTENTION_KERNEL(split_decode_cpu_model) {
  return declare_split_decode("osvs.attention.split_decode.cpu_model",
                              std::shared_ptr<AttentionExecutor>(make_cpu_attention_executor()),
                              Where::Host);
}

}  // namespace
}  // namespace osvs::builtin
