// The host tiled attention kernels' bits, recorded: the outputs of osvs.attention.tiled_host on
// 400 seeded cases (attention_sample_cases.h) hashed case by case and compared with
// tiled_attention_host_bits.txt, which the kernel wrote before its loop became one source for
// the host and the device (tiled_attention_row.h); and those of osvs.attention_backward.tiled_host
// on the same cases fitted to it, against tiled_attention_backward_host_bits.txt, which it wrote
// before its loops became one source for both executors (tiled_attention_backward_elements.h). A
// refactoring that changes one bit of one output of one case fails here, naming the case.
// OSVS_WRITE_TILED_BITS=<file> (OSVS_WRITE_TILED_BACKWARD_BITS=<file>) writes the record instead
// (only when the numerics are meant to change, with the reason in the commit).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "attention_sample_cases.h"
#include "osvs/api/attention_runner.h"
#include "osvs/kernels/stable_hash.h"
#include "osvs/testing/source_file.h"
#include "tiled_attention.h"
#include "tiled_attention_backward.h"

namespace osvs::test {
namespace {

constexpr int kCases = 400;
constexpr std::uint64_t kSeed = 20261203;

std::string hash_of(const std::vector<float>& x) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(fnv1a64(std::string_view(
                    reinterpret_cast<const char*>(x.data()), x.size() * sizeof(float)))));
  return text;
}

/// One line a case: "<index> o <hash> lse <hash>" (a backward kernel: "<index> dq <hash> dk
/// <hash> dv <hash> delta <hash> dsinks <hash>"); k declares bottom-right masks, the cases of
/// top-left ones run on its copy declaring those.
std::vector<std::string> record_of(const AttentionKernel& k,
                                   const std::vector<AttentionCase>& cases) {
  AttentionKernel top_left = k;
  top_left.mask_align(MaskAlign::TopLeft);
  std::vector<std::string> lines;
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const bool top = cases[n].mask.align == MaskAlign::TopLeft;
    const AttentionOutputs out = run_attention_kernel(top ? top_left : k, cases[n]);
    lines.push_back(std::to_string(n) +
                    (k.backward() ? " dq " + hash_of(out.dq) + " dk " + hash_of(out.dk) + " dv " +
                                        hash_of(out.dv) + " delta " + hash_of(out.delta) +
                                        " dsinks " + hash_of(out.dsinks)
                                  : " o " + hash_of(out.o) + " lse " + hash_of(out.lse)));
  }
  return lines;
}

/// k's record against the file `record` (from the source tree), or written to the file the
/// environment variable `write` names.
void expect_recorded_bits(const AttentionKernel& k, const std::vector<AttentionCase>& cases,
                          const char* write, const char* record) {
  const std::vector<std::string> got = record_of(k, cases);
  if (const char* path = std::getenv(write)) {
    std::ofstream out(path);
    for (const std::string& line : got) out << line << "\n";
    GTEST_SKIP() << "wrote " << path;
  }
  const auto file = osvs::testing::source_file(record);
  std::ifstream in(file);
  ASSERT_TRUE(in) << "no record at " << file;
  std::vector<std::string> want;
  for (std::string line; std::getline(in, line);) want.push_back(line);
  ASSERT_EQ(want.size(), got.size());
  for (std::size_t n = 0; n < got.size(); ++n) EXPECT_EQ(got[n], want[n]) << "case " << n;
}

TEST(TiledAttentionBits, SampleCasesAreWellFormedAndDeclared) {
  const AttentionKernel k = builtin::declare_tiled_attention(
      "osvs.test.tiled", builtin::tiled_attention<builtin::TiledAttention>);
  int paged = 0, split = 0, masked = 0, softcap = 0, sinks = 0, alibi = 0, empty = 0;
  for (const AttentionCase& c : attention_sample_cases(kCases, kSeed)) {
    ASSERT_EQ(attention_case_problem(c), "");
    AttentionKernel declared = k;
    declared.mask_align(c.mask.align);
    ASSERT_EQ(undeclared_in(declared, c), "");
    paged += c.page_size > 0, split += c.kv_splits > 0, masked += c.mask.kind != MaskKind::None;
    softcap += c.softcap > 0, sinks += !c.sinks.empty(), alibi += !c.alibi_slopes.empty();
    for (const AttentionSequence& s : c.seqs) empty += s.k_len == 0;
  }
  // Every feature drawn often enough to matter.
  for (int n : {paged, split, masked, softcap, sinks, alibi, empty}) EXPECT_GE(n, 20);
}

TEST(TiledAttentionBits, HostKernelKeepsItsRecordedBits) {
  const AttentionKernel k = builtin::declare_tiled_attention(
      "osvs.test.tiled", builtin::tiled_attention<builtin::TiledAttention>);
  expect_recorded_bits(k, attention_sample_cases(kCases, kSeed), "OSVS_WRITE_TILED_BITS",
                       "api/tests/tiled_attention_host_bits.txt");
}

AttentionKernel tiled_backward() {
  return builtin::declare_tiled_attention_backward(
      "osvs.test.tiled_backward",
      builtin::tiled_attention_backward<builtin::TiledAttentionBackward>);
}

TEST(TiledAttentionBackwardBits, SampleCasesAreWellFormedAndDeclared) {
  const AttentionKernel k = tiled_backward();
  int masked = 0, softcap = 0, sinks = 0, alibi = 0, empty = 0, gqa = 0, two = 0;
  for (const AttentionCase& c : attention_backward_sample_cases(kCases, kSeed)) {
    ASSERT_EQ(attention_case_problem(c), "");
    AttentionKernel declared = k;
    declared.mask_align(c.mask.align);
    ASSERT_EQ(undeclared_in(declared, c), "");
    masked += c.mask.kind != MaskKind::None, softcap += c.softcap > 0, sinks += !c.sinks.empty();
    alibi += !c.alibi_slopes.empty(), gqa += c.heads_q > c.heads_kv, two += c.base == LseBase::Two;
    for (const AttentionSequence& s : c.seqs) empty += s.k_len == 0;
  }
  for (int n : {masked, softcap, sinks, alibi, empty, gqa, two}) EXPECT_GE(n, 20);
}

TEST(TiledAttentionBackwardBits, HostKernelKeepsItsRecordedBits) {
  expect_recorded_bits(tiled_backward(), attention_backward_sample_cases(kCases, kSeed),
                       "OSVS_WRITE_TILED_BACKWARD_BITS",
                       "api/tests/tiled_attention_backward_host_bits.txt");
}

}  // namespace
}  // namespace osvs::test
