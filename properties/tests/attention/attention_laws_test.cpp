// The attention laws (properties/include/osvs/properties/attention/attention_laws.h) on the
// selected executor: the merge-states kernel and the split-KV decode kernel, each law one test.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "attention_law_runner.h"
#include "attention_test_executor.h"
#include "osvs/properties/gen/attention.h"

namespace osvs::test {
namespace {

AttentionExecutor& executor_or_skip() {
  AttentionExecutor* e = attention_executor();
  if (!e) throw std::runtime_error(attention_unavailable_reason());
  return *e;
}

#define OSVS_REQUIRE_EXECUTOR() \
  if (!attention_executor()) GTEST_SKIP() << "no executor: " << attention_unavailable_reason()

// The law helpers skip the test (GTEST_SKIP returns from the helper, the test's only statement)
// when the selected executor is unavailable.
void merge_law(const char* name, Verdict (*law)(const MergeCase&, const MergeUnderTest&),
               int percent = 100) {
  OSVS_REQUIRE_EXECUTOR();
  const MergeUnderTest m = merge_under_test(executor_or_skip());
  run_attention_law<MergeCase>(
      name, gen::merge_case(), [&](const MergeCase& c) { return law(c, m); },
      AttentionLawLimits{percent});
}

void decode_law(const char* name, Verdict (*law)(const DecodeCase&, const DecodeUnderTest&),
                int percent) {
  OSVS_REQUIRE_EXECUTOR();
  const DecodeUnderTest d = decode_under_test(executor_or_skip());
  run_attention_law<DecodeCase>(
      name, gen::decode_case(), [&](const DecodeCase& c) { return law(c, d); },
      AttentionLawLimits{percent});
}

TEST(AttentionMergeLaws, Commutativity) {
  merge_law("merge_commutativity", check_merge_commutativity);
}
TEST(AttentionMergeLaws, Identity) {
  merge_law("merge_identity", check_merge_identity);
}
TEST(AttentionMergeLaws, SpecialValues) {
  merge_law("merge_special_values", check_merge_special_values);
}
TEST(AttentionMergeLaws, Accuracy) {
  merge_law("merge_accuracy", check_merge_accuracy);
}
TEST(AttentionMergeLaws, Associativity) {
  merge_law("merge_associativity", check_merge_associativity);
}
TEST(AttentionMergeLaws, TreeInvariance) {
  merge_law("merge_tree_invariance", check_merge_tree_invariance);
}

TEST(AttentionDecodeLaws, Accuracy) {
  decode_law("decode_accuracy", check_decode_accuracy, 300);
}
TEST(AttentionDecodeLaws, PartitionInvariance) {
  decode_law("decode_partition_invariance", check_decode_partition_invariance, 100);
}
TEST(AttentionDecodeLaws, Permutation) {
  decode_law("decode_permutation", check_decode_permutation, 100);
}
TEST(AttentionDecodeLaws, Masking) {
  decode_law("decode_masking", check_decode_masking, 100);
}
TEST(AttentionDecodeLaws, SpecialValues) {
  decode_law("decode_special_values", check_decode_special_values, 100);
}
TEST(AttentionDecodeLaws, ExecutorAgreement) {
  OSVS_REQUIRE_EXECUTOR();
  AttentionExecutor& e = executor_or_skip();
  if (!e.is_gpu()) GTEST_SKIP() << "agreement needs a device: the CPU model would meet itself";
  const DecodeUnderTest gpu = decode_under_test(e);
  const DecodeUnderTest cpu = decode_under_test(cpu_attention_executor());
  run_attention_law<DecodeCase>("decode_agreement", gen::decode_case(), [&](const DecodeCase& c) {
    return check_decode_agreement(c, gpu, cpu);
  });
}

}  // namespace
}  // namespace osvs::test

namespace osvs::test {
namespace {

/// What the decode generator reaches over RapidCheck's sizes 0 .. 99 (one case each, seeds
/// fixed): the edges the laws are meant to cover must all occur.
TEST(AttentionGenerators, DecodeCasesReachTheirEdges) {
  bool dim_1 = false, dim_256 = false, dim_odd_over_32 = false, long_kv = false, empty_kv = false,
       empty_split = false, many_splits = false, split_per_key = false, fully_masked = false,
       bf16 = false, f16 = false, base_2 = false, ties = false;
  std::int64_t work = 0;
  for (int size = 0; size < 100; ++size) {
    const DecodeCase c = gen::decode_case()(rc::Random(1000 + size), size).value();
    const DecodeProblem& p = c.problem;
    dim_1 |= p.head_dim == 1;
    dim_256 |= p.head_dim == 256;
    dim_odd_over_32 |= p.head_dim > 32 && p.head_dim % 32 != 0;
    long_kv |= p.kv_len >= 100;
    empty_kv |= p.kv_len == 0;
    many_splits |= c.plan.splits() >= 6;
    split_per_key |= p.kv_len >= 12 && c.plan.splits() > p.kv_len / 2;
    for (int s = 0; s < c.plan.splits(); ++s)
      empty_split |= p.kv_len > 0 && c.plan.offsets[static_cast<std::size_t>(s)] ==
                                         c.plan.offsets[static_cast<std::size_t>(s) + 1];
    fully_masked |= !p.masked.empty() && p.kv_len > 0 &&
                    std::all_of(p.masked.begin(), p.masked.begin() + p.kv_len,
                                [](std::uint8_t m) { return m != 0; });
    bf16 |= p.out == DType::BF16;
    f16 |= p.out == DType::F16;
    base_2 |= p.base == LseBase::Two;
    const auto dim = static_cast<std::ptrdiff_t>(p.head_dim);
    ties |= p.kv_len >= 2 && std::equal(p.k.begin(), p.k.begin() + dim, p.k.begin() + dim);
    work += p.rows() * p.kv_len * p.head_dim;
  }
  std::cout << "[ osvs     ] 100 decode cases: " << work << " key components in all\n";
  EXPECT_TRUE(dim_1 && dim_256 && dim_odd_over_32);
  EXPECT_TRUE(long_kv && empty_kv);
  EXPECT_TRUE(empty_split && many_splits && split_per_key);
  EXPECT_TRUE(fully_masked);
  EXPECT_TRUE(bf16 && f16 && base_2);
  EXPECT_TRUE(ties);
}

}  // namespace
}  // namespace osvs::test
