// The CPU model of the attention kernels: the same order as kernels/src/cuda/attention/, step for
// step (split_decode.h, attention_state.h, merge_states.h), one warp's lanes replayed in turn.
#include <memory>

#include "osvs/kernels/attention/attention_executor.h"
#include "osvs/kernels/attention/merge_model.h"
#include "osvs/kernels/attention/split_decode.h"

namespace osvs {
namespace {

/// Partial states of `rows` rows of head_dim components of type `type`, zero-filled.
AttnStates shaped_like(std::int64_t rows, int head_dim, DType type) {
  AttnStates s;
  s.rows = rows;
  s.head_dim = head_dim;
  s.o_type = type;
  s.lse.resize(static_cast<std::size_t>(rows));
  s.o.resize(static_cast<std::size_t>(rows * head_dim));
  return s;
}

/// One warp's work: the partial of keys [begin, end) for query row r, written into `out` row r.
void decode_split_model(const DecodeProblem& p, std::int64_t r, std::int64_t begin,
                        std::int64_t end, AttnStates& out) {
  const auto dim = static_cast<std::size_t>(p.head_dim);
  const int b = static_cast<int>(r / p.heads);
  const float multiplier = score_multiplier(p.scale, p.base);
  const float* q = p.q.data() + static_cast<std::size_t>(r) * dim;
  State state = identity_state();
  float o[kAttnMaxHeadDim] = {};  // component c lives on lane c % 32 in the kernel
  for (std::int64_t j = begin; j < end; ++j) {
    const std::size_t key = (static_cast<std::size_t>(r) * static_cast<std::size_t>(p.kv_len) +
                             static_cast<std::size_t>(j)) *
                            dim;
    const bool masked = p.is_masked(b, j);
    // A masked key's k and v are never read (the kernel skips its loads).
    const float dot = masked ? 0.0f : warp_dot_model(q, p.k.data() + key, p.head_dim);
    const AttnWeights w =
        attn_combine(state, attn_lift(key_score(dot, multiplier, masked)), p.base);
    for (std::size_t c = 0; c < dim; ++c)
      o[c] = attn_combine_o(w, o[c], masked ? 0.0f : p.v[key + c]);
    state = w.s;
  }
  out.lse[static_cast<std::size_t>(r)] = attn_lse(state, p.base);
  for (std::size_t c = 0; c < dim; ++c)
    out.o[static_cast<std::size_t>(r) * dim + c] = round_attn(p.out, attn_normalise(o[c], state));
}

class CpuAttentionExecutor final : public AttentionExecutor {
 public:
  const char* name() const override { return "cpu"; }
  bool is_gpu() const override { return false; }
  std::string describe() const override {
    return kPortableExp ? "cpu model, portable exp/log" : "cpu model, glibc exp/log";
  }

  AttnStates merge_states(const AttnStates& a, const AttnStates& b, LseBase base) override {
    validate(a, b);
    return merge_states_model(a, b, base);
  }

  DecodeResult split_decode(const DecodeProblem& p, const SplitPlan& plan) override {
    validate(p, plan);
    DecodeResult r;
    for (int s = 0; s < plan.splits(); ++s) {
      AttnStates part = shaped_like(p.rows(), p.head_dim, p.out);
      for (std::int64_t row = 0; row < p.rows(); ++row)
        decode_split_model(p, row, plan.offsets[static_cast<std::size_t>(s)],
                           plan.offsets[static_cast<std::size_t>(s) + 1], part);
      r.partials.push_back(std::move(part));
    }
    std::vector<AttnStates> slots = r.partials;
    for (const Merge& m : plan.merges)
      slots[static_cast<std::size_t>(m.dst)] = merge_states_model(
          slots[static_cast<std::size_t>(m.dst)], slots[static_cast<std::size_t>(m.src)], p.base);
    r.out = std::move(slots[0]);
    return r;
  }
};

}  // namespace

std::unique_ptr<AttentionExecutor> make_cpu_attention_executor() {
  return std::make_unique<CpuAttentionExecutor>();
}

}  // namespace osvs
