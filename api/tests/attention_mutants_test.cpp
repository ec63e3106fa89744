// The attention mutants: osvs's tiled attention kernel (api/builtin/tiled_attention.h) with one
// defect each, as policies of the same code, under the attention laws as a registered kernel
// would be: every mutant must be killed by some law (the law named where the mutant names one:
// the first of the table's order that kills it, and another it breaks too), and each law that
// kills it must shrink its counterexample to at most 2 sequences, 8 keys a sequence (12 for the
// one defect that needs three splits of 4), head_dim 4, 2 kv heads and 2 query heads (4 for the
// one defect that needs them).
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
// The defects of issue 31 (deterministic inference). Accurate, but the bits follow the batch
// size: 4 splits alone, 2 in a batch of two (3 keys tell them apart: splits of 1 against 2).
struct SplitCountFromBatch : TiledAttention {
  static constexpr bool split_count_from_batch = true;
};
// Accurate, 2 splits up to 4 sequences and 1 above: no batch of the generated cases (3
// sequences at most) crosses it, split_invariance's batch of 8 copies does.
struct UnsplitAboveBatch : TiledAttention {
  static constexpr int unsplit_above_batch = 4;
};
// Accurate, but its partials merged left to right, then right to left at the next launch, as
// float atomics land in an order of their own: with three partials or more, two runs differ, which
// the first law that compares two runs of one attention bitwise sees (poison, gqa or determinism,
// whichever's cases first have three splits; accuracy and empty_rows compare with the oracle), and
// determinism.
struct PartialsInVaryingOrder : TiledAttention {
  static constexpr bool partials_in_varying_order = true;
};
// Accurate (exact in real arithmetic), but a key after the prefix weighed with the prefix's max
// and rescaled: its bits follow where the query block starts, which chunks move.
struct StaleMaxAfterPrefix : TiledAttention {
  static constexpr bool stale_max_after_prefix = true;
};
// A page's first key taken twice: wrong, so accuracy finds it first; page_layout too (not in
// contiguous K/V).
struct PageBoundaryReadTwice : TiledAttention {
  static constexpr bool page_boundary_read_twice = true;
};
// Accurate, but the declared split size read as a split count: the splits then follow the KV
// length, which a chunk's KV prefix changes (a fixed split count against a fixed split size).
struct SplitParameterAsCount : TiledAttention {
  static constexpr bool split_parameter_as_count = true;
};

struct Mutant {
  const char* name;
  void (*run)(const AttentionProblem&);
  /// The fewest query heads that show the defect: 2 unless it needs more.
  int min_heads_q = 2;
  /// The first law (in the table's order) that must kill it (or one of several, space-separated),
  /// and another law that must kill it too, or null.
  const char* killed_by = nullptr;
  const char* also_killed_by = nullptr;
  /// The most keys a sequence of its shrunk case may need.
  std::int64_t max_keys = 8;
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
    {"split_count_from_batch", builtin::tiled_attention<SplitCountFromBatch>, 2, "batch_invariance",
     "split_invariance"},
    {"unsplit_above_batch", builtin::tiled_attention<UnsplitAboveBatch>, 2, "split_invariance"},
    // Three splits of 4 keys (the smallest declared size): 12 keys (9 where a last split of one
    // key is enough to change a rounding).
    {"partials_in_varying_order", builtin::tiled_attention<PartialsInVaryingOrder>, 2,
     "poison gqa determinism", "determinism", 12},
    {"stale_max_after_prefix", builtin::tiled_attention<StaleMaxAfterPrefix>, 2, "chunked_prefill",
     "prefill_decode"},
    {"page_boundary_read_twice", builtin::tiled_attention<PageBoundaryReadTwice>, 2, "accuracy",
     "page_layout"},
    // Splits that a chunk's shorter KV prefix cuts elsewhere: a few keys (the catalogue's 8).
    {"split_parameter_as_count", builtin::tiled_attention<SplitParameterAsCount>, 2,
     "chunked_prefill"},
};

constexpr std::size_t kMaxSequences = 2;
constexpr int kMaxHeadDim = 4;
constexpr int kMaxKvHeads = 2;
constexpr double kShrinkSeconds = 20;

class AttentionMutant : public ::testing::TestWithParam<Mutant> {};

/// Runs `law` on the mutant; when it kills it, checks the shrunk case's size and returns true.
bool killed_small(const AttentionLaw& law, const AttentionKernel& k, const Mutant& m) {
  rc::detail::TestParams params;
  params.seed = 20261202;
  params.maxSuccess = 200;
  const auto run = testbed::run_law<AttentionKind>(
      law, k, kShrinkSeconds, [](const Verdict&, const AttentionCase&) {}, params);
  EXPECT_FALSE(run.errored()) << law.name << ": " << run.property_failure;
  if (!run.failed()) return false;
  const AttentionCase& c = *run.smallest;
  std::int64_t keys = 0;
  for (const AttentionSequence& s : c.seqs) keys = std::max(keys, s.k_len);
  std::cout << m.name << ": killed by " << law.name << " (" << run.shrink_steps
            << " smaller failing cases): " << AttentionKind::summary(c) << "\n  "
            << run.smallest_verdict.explanation << "\n";
  EXPECT_LE(c.seqs.size(), kMaxSequences) << law.name << ": " << AttentionKind::summary(c);
  EXPECT_LE(keys, m.max_keys) << law.name << ": " << AttentionKind::summary(c);
  EXPECT_LE(c.head_dim_qk, kMaxHeadDim) << law.name << ": " << AttentionKind::summary(c);
  EXPECT_LE(c.heads_kv, kMaxKvHeads) << law.name << ": " << AttentionKind::summary(c);
  EXPECT_LE(c.heads_q, m.min_heads_q) << law.name << ": " << AttentionKind::summary(c);
  return true;
}

TEST_P(AttentionMutant, IsKilledAndShrunkSmall) {
  const Mutant& m = GetParam();
  const AttentionKernel k =
      builtin::declare_tiled_attention(std::string("osvs.attention_mutant.") + m.name, m.run);
  std::string first;
  for (const AttentionLaw& law : AttentionKind::laws()) {
    if (!why_skipped<AttentionKind>(k, law).empty()) continue;
    if (killed_small(law, k, m)) {
      first = law.name;
      break;
    }
  }
  ASSERT_FALSE(first.empty()) << m.name << " survived every attention law";
  if (m.killed_by != nullptr) {
    const std::string expected = std::string(" ") + m.killed_by + " ";
    EXPECT_NE(expected.find(" " + first + " "), std::string::npos)
        << m.name << ": first killed by " << first << ", expected " << m.killed_by;
  }
  if (m.also_killed_by != nullptr) {
    const AttentionLaw* also = AttentionKind::find_law(m.also_killed_by);
    ASSERT_NE(also, nullptr) << m.also_killed_by;
    EXPECT_TRUE(killed_small(*also, k, m)) << m.name << " survived " << m.also_killed_by;
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, AttentionMutant, ::testing::ValuesIn(kMutants),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace osvs::test
