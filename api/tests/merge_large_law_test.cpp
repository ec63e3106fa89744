// The merge kernels' large law (merge_large_law.h) at a scaled-down wrap (OSVS_LARGE_LAWS_ELEMENTS
// = 2^20: the same rows judged around elements 2^20 and 2^21 as around 2^31 and 2^32, in 4 MiB
// per o array): opt-in, the rows it judges, osvs's CPU model passing it, and host mutants whose
// offsets wrap as 32-bit ones do, each caught at its own wrap with the likely cause named.
#include <gtest/gtest.h>

#include <iostream>

#include "builtin_merge.h"
#include "large_law_parts.h"
#include "merge_large_law.h"
#include "osvs/api/kind.h"
#include "scoped_env.h"

namespace osvs::test {
namespace {

/// osvs's CPU merge model with each row's element offset kept in `Bits` bits, as a kernel that
/// computes it in a 32-bit integer keeps it in 32 (an unsigned one: back to 0 past 2^Bits): row
/// r is merged at the row the wrapped offset names, read from there (its o and, through
/// offset / head_dim, its lse) and, with WrapWrites, written there too.
template <int Bits, bool WrapWrites>
void wrapping_offset_merge(const MergeProblem& p) {
  const std::size_t es = size_of(p.o_type);
  for (std::int64_t r = 0; r < p.rows; ++r) {
    const std::int64_t w = ((r * p.head_dim) & ((std::int64_t{1} << Bits) - 1)) / p.head_dim;
    const std::int64_t to = WrapWrites ? w : r;
    MergeProblem one = p;
    one.rows = one.heads = 1;
    one.o_head_stride = one.o_token_stride = p.head_dim;
    one.o_a_ptr = static_cast<const unsigned char*>(p.o_a_ptr) + w * p.head_dim * es;
    one.o_b_ptr = static_cast<const unsigned char*>(p.o_b_ptr) + w * p.head_dim * es;
    one.lse_a = p.lse_a + w;
    one.lse_b = p.lse_b + w;
    one.o_out_ptr = static_cast<unsigned char*>(p.o_out_ptr) + to * p.head_dim * es;
    one.lse_out = p.lse_out + to;
    builtin::merge_cpu_model(one);
  }
}

template <int Bits, bool WrapWrites>
MergeKernel wrapping_kernel(const std::string& name) {
  return MergeKernel(name, Where::Host)
      .o_types({DType::F32, DType::BF16, DType::F16})
      .run(wrapping_offset_merge<Bits, WrapWrites>);
}

const MergeLaw& large_law() {
  const MergeLaw* law = find_merge_law("large_batch");
  EXPECT_NE(law, nullptr);
  return *law;
}

/// The law's verdict on k, a failure's explanation printed.
Verdict run_law(const MergeKernel& k) {
  const Verdict v = MergeKind::check(large_law(), k, api::large_merge_case(k));
  if (v.fails()) std::cout << "[ osvs     ] " << k.name() << ": " << v.explanation << "\n";
  return v;
}

TEST(MergeLargeLaw, IsOptInWithOneFixedCase) {
  const MergeKernel k = builtin::merge_cpu_model_kernel();
  EXPECT_NE(large_law().excluded(k).find("set OSVS_LARGE_LAWS=1"), std::string::npos);
  EXPECT_TRUE(large_law().single_case);
  const ScopedEnv opt_in("OSVS_LARGE_LAWS", "1");
  // Full size (72.4 GiB of host memory for the CPU model): left out where it does not fit.
  if (const std::string why = large_law().excluded(k); !why.empty())
    EXPECT_EQ(why.rfind("not judged here: needs 72.4 GiB of host memory, the host has ", 0), 0u)
        << why;
  {
    const ScopedEnv small("OSVS_LARGE_LAWS_ELEMENTS", "1048576");
    EXPECT_EQ(large_law().excluded(k), "");
  }
  const MergeCase c = api::large_merge_case(k);
  ASSERT_EQ(c.parts.size(), 2u);
  EXPECT_EQ(c.parts[0].head_dim, 128);
  EXPECT_EQ(c.parts[0].o_type, DType::BF16);  // the smallest declared, the first of equal size
}

TEST(MergeLargeLaw, JudgesTheRowsAroundBothWraps) {
  // head_dim 128: element 2^20 starts row 2^13 = 8192, element 2^21 row 16384; 2^21 / 128 + 2
  // rows rounded up to a multiple of 8 heads is 16392.
  const std::vector<std::int64_t> expected = {0, 8191, 8192, 8193, 16383, 16384, 16385, 16391};
  EXPECT_EQ(api::rows_around({1 << 20, 1 << 21}, 128, 16392), expected);
  // A row length that does not divide the wrap (the row law's N = 4099): the row holding it.
  EXPECT_EQ(api::rows_around({1 << 20}, 4099, 257), (std::vector<std::int64_t>{0, 254, 255, 256}));
}

TEST(MergeLargeLaw, NamesTheLikelyCauseOfAFailedLaunch) {
  const std::string illegal =
      "merge kernel 'x' failed on the device: cudaErrorIllegalAddress (an illegal memory access "
      "was encountered)";
  const std::string named = api::with_likely_cause(illegal, std::int64_t{1} << 32);
  EXPECT_EQ(named.rfind(illegal, 0), 0u);
  EXPECT_NE(named.find("likely cause: a 32-bit offset wraps at 2^31 / 2^32 elements"),
            std::string::npos)
      << named;
  EXPECT_NE(named.find("4294967296 elements"), std::string::npos) << named;
  const std::string breach = "merge kernel 'x' modified its input o_b / lse_b (row 3)";
  EXPECT_NE(api::with_likely_cause(breach, 1).find("likely cause"), std::string::npos);
  const std::string thrown =
      "merge kernel 'x' threw: cudaMalloc of 9 bytes: cudaErrorMemoryAllocation (out of memory)";
  EXPECT_EQ(api::with_likely_cause(thrown, 1), thrown);
}

class MergeLargeLawScaled : public ::testing::Test {
  const ScopedEnv opt_in_{"OSVS_LARGE_LAWS", "1"};
  const ScopedEnv small_{"OSVS_LARGE_LAWS_ELEMENTS", "1048576"};  // 2^20
};

TEST_F(MergeLargeLawScaled, OsvsCpuModelHolds) {
  const Verdict v = run_law(builtin::merge_cpu_model_kernel());
  EXPECT_TRUE(v.holds()) << v.explanation;
  EXPECT_FALSE(v.evidence.empty());
}

TEST_F(MergeLargeLawScaled, CatchesAnUnsignedOffsetThatWrapsAtTwiceTheSignedWrap) {
  // Wrapping at 2^21 (2^32 scaled): rows 16384 on are written at rows 0 on, never at their own.
  const Verdict v = run_law(wrapping_kernel<21, true>("test.wrapping_merge_21"));
  ASSERT_TRUE(v.fails()) << v.explanation;
  EXPECT_NE(v.explanation.find("left lse[16384] unwritten"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find("a 32-bit offset wraps at 2^31 / 2^32 elements (scaled down to "
                               "1048576 / 2097152"),
            std::string::npos)
      << v.explanation;
}

TEST_F(MergeLargeLawScaled, CatchesAnOffsetThatWrapsAtTheSignedWrap) {
  const Verdict v = run_law(wrapping_kernel<20, true>("test.wrapping_merge_20"));
  ASSERT_TRUE(v.fails()) << v.explanation;
  EXPECT_NE(v.explanation.find("left lse[8192] unwritten"), std::string::npos) << v.explanation;
}

TEST_F(MergeLargeLawScaled, CatchesReadsOfAnotherRowByTheExactMerge) {
  // Reads wrapped, writes not: every row written, row 16384 holding the merge of row 0's
  // operands, judged against its own exact merge.
  const Verdict v = run_law(wrapping_kernel<21, false>("test.wrapping_reads_21"));
  ASSERT_TRUE(v.fails()) << v.explanation;
  EXPECT_EQ(
      v.explanation.rfind("row 16384 of 16392 (head_dim = 128, elements 2097152..2097279)", 0), 0u)
      << v.explanation;
}

}  // namespace
}  // namespace osvs::test
