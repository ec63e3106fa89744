// The attention mutants: osvs's tiled attention kernel (api/builtin/tiled_attention.h) with one
// defect each, as policies of the same code, under the attention laws as a registered kernel
// would be: every mutant must be killed by some law, and the first law that kills it must shrink
// its counterexample to at most 2 sequences, 8 keys a sequence, head_dim 4, 2 kv heads and 2
// query heads (4 for the one defect that needs them).
// The unmutated kernel passes every law (the builtin testbed, osvs_builtin_kernel_tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "law_run.h"
#include "tiled_attention.h"

namespace osvs::test {
namespace {

using builtin::TiledAttention;

struct WindowLeftOffByOne : TiledAttention {
  static constexpr int window_left_extra = 1;
};
struct CausalDropsDiagonal : TiledAttention {
  static constexpr bool causal_keeps_diagonal = false;
};
struct AlignmentSwapped : TiledAttention {
  static constexpr bool swap_alignment = true;
};
struct GqaHeadModulo : TiledAttention {
  static constexpr bool gqa_head_modulo = true;
};
struct PageTableOffByOne : TiledAttention {
  static constexpr bool page_off_by_one = true;
};
struct RaggedTailUnmasked : TiledAttention {
  static constexpr bool read_past_length = true;
};
struct AccNotRescaled : TiledAttention {
  static constexpr bool rescale_acc = false;
};
struct DenominatorNotRescaled : TiledAttention {
  static constexpr bool rescale_l = false;
};
struct MaxOverwrittenBeforeRescale : TiledAttention {
  static constexpr bool max_before_alpha = false;
};
struct LseWithoutMax : TiledAttention {
  static constexpr bool lse_has_max = false;
};
struct LseLeftInBaseE : TiledAttention {
  static constexpr bool lse_to_base_two = false;
};
struct EmptyRowDividesByZero : TiledAttention {
  static constexpr bool empty_row_guard = false;
};
struct MaskedValueAccumulated : TiledAttention {
  static constexpr bool skip_masked = false;
};
struct LastTileDropped : TiledAttention {
  static constexpr bool last_tile = false;
};
struct SoftcapBeforeScale : TiledAttention {
  static constexpr bool softcap_before_scale = true;
};
struct SinkLeftOutOfLse : TiledAttention {
  static constexpr bool sink_in_lse = false;
};
struct SinksIgnored : TiledAttention {
  static constexpr bool apply_sinks = false;
};
struct AlibiFromQueryIndex : TiledAttention {  // |i - j|: right only where q_len == k_len
  static constexpr bool alibi_from_diagonal = false;
};
struct AlibiAdded : TiledAttention {
  static constexpr bool alibi_subtracted = false;
};
struct TileByBatchPosition : TiledAttention {  // accurate, but a sequence's bits follow its place
  static constexpr bool tile_by_batch_position = true;
};
struct TilesFollowPages : TiledAttention {  // accurate, but the bits follow the page size
  static constexpr bool tiles_follow_pages = true;
};

struct Mutant {
  const char* name;
  void (*run)(const AttentionProblem&);
  /// The fewest query heads that show the defect: 2 unless it needs more.
  int min_heads_q = 2;
};

const Mutant kMutants[] = {
    {"window_left_off_by_one", builtin::tiled_attention<WindowLeftOffByOne>},
    {"causal_drops_diagonal", builtin::tiled_attention<CausalDropsDiagonal>},
    {"alignment_swapped", builtin::tiled_attention<AlignmentSwapped>},
    // h % heads_kv and h / group first differ at 2 kv heads with 2 query heads each.
    {"gqa_head_modulo", builtin::tiled_attention<GqaHeadModulo>, 4},
    {"page_table_off_by_one", builtin::tiled_attention<PageTableOffByOne>},
    {"ragged_tail_unmasked", builtin::tiled_attention<RaggedTailUnmasked>},
    {"acc_not_rescaled", builtin::tiled_attention<AccNotRescaled>},
    {"denominator_not_rescaled", builtin::tiled_attention<DenominatorNotRescaled>},
    {"max_overwritten_before_rescale", builtin::tiled_attention<MaxOverwrittenBeforeRescale>},
    {"lse_without_max", builtin::tiled_attention<LseWithoutMax>},
    {"lse_left_in_base_e", builtin::tiled_attention<LseLeftInBaseE>},
    {"empty_row_divides_by_zero", builtin::tiled_attention<EmptyRowDividesByZero>},
    {"masked_value_accumulated", builtin::tiled_attention<MaskedValueAccumulated>},
    {"last_tile_dropped", builtin::tiled_attention<LastTileDropped>},
    {"softcap_before_scale", builtin::tiled_attention<SoftcapBeforeScale>},
    {"sink_left_out_of_lse", builtin::tiled_attention<SinkLeftOutOfLse>},
    {"sinks_ignored", builtin::tiled_attention<SinksIgnored>},
    {"alibi_from_query_index", builtin::tiled_attention<AlibiFromQueryIndex>},
    {"alibi_added", builtin::tiled_attention<AlibiAdded>},
    {"tile_by_batch_position", builtin::tiled_attention<TileByBatchPosition>},
    {"tiles_follow_pages", builtin::tiled_attention<TilesFollowPages>},
};

constexpr std::size_t kMaxSequences = 2;
constexpr std::int64_t kMaxKeys = 8;
constexpr int kMaxHeadDim = 4;
constexpr int kMaxKvHeads = 2;
constexpr double kShrinkSeconds = 20;

class AttentionMutant : public ::testing::TestWithParam<Mutant> {};

TEST_P(AttentionMutant, IsKilledAndShrunkSmall) {
  const Mutant& m = GetParam();
  const AttentionKernel k =
      builtin::declare_tiled_attention(std::string("osvs.attention_mutant.") + m.name, m.run);
  rc::detail::TestParams params;
  params.seed = 20261202;
  params.maxSuccess = 200;
  for (const AttentionLaw& law : AttentionKind::laws()) {
    if (!why_skipped<AttentionKind>(k, law).empty()) continue;
    const auto run = testbed::run_law<AttentionKind>(
        law, k, kShrinkSeconds, [](const Verdict&, const AttentionCase&) {}, params);
    ASSERT_FALSE(run.errored()) << law.name << ": " << run.property_failure;
    if (!run.failed()) continue;
    const AttentionCase& c = *run.smallest;
    std::int64_t keys = 0;
    for (const AttentionSequence& s : c.seqs) keys = std::max(keys, s.k_len);
    std::cout << m.name << ": killed by " << law.name << " (" << run.shrink_steps
              << " smaller failing cases): " << AttentionKind::summary(c) << "\n  "
              << run.smallest_verdict.explanation << "\n";
    EXPECT_LE(c.seqs.size(), kMaxSequences) << AttentionKind::summary(c);
    EXPECT_LE(keys, kMaxKeys) << AttentionKind::summary(c);
    EXPECT_LE(c.head_dim_qk, kMaxHeadDim) << AttentionKind::summary(c);
    EXPECT_LE(c.heads_kv, kMaxKvHeads) << AttentionKind::summary(c);
    EXPECT_LE(c.heads_q, m.min_heads_q) << AttentionKind::summary(c);
    return;
  }
  ADD_FAILURE() << m.name << " survived every attention law";
}

INSTANTIATE_TEST_SUITE_P(Catalogue, AttentionMutant, ::testing::ValuesIn(kMutants),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace osvs::test
