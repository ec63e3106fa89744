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

/// Why c is not a well-formed case that k, declaring c's mask alignment, takes ("" when it is).
std::string problem_for(const AttentionKernel& k, const AttentionCase& c) {
  if (std::string problem = attention_case_problem(c); !problem.empty()) return problem;
  AttentionKernel declared = k;
  declared.mask_align(c.mask.align);
  return undeclared_in(declared, c);
}

AttentionKernel tiled_forward() {
  return builtin::declare_tiled_attention("osvs.test.tiled",
                                          builtin::tiled_attention<builtin::TiledAttention>);
}

/// A feature the samples must draw often enough to matter: how often a case has it.
struct Feature {
  const char* name;
  int (*count)(const AttentionCase&);
};

const Feature kPaged{"paged", [](const AttentionCase& c) { return int{c.page_size > 0}; }};
const Feature kSplit{"split", [](const AttentionCase& c) { return int{c.kv_splits > 0}; }};
const Feature kMasked{"masked",
                      [](const AttentionCase& c) { return int{c.mask.kind != MaskKind::None}; }};
const Feature kSoftcap{"softcap", [](const AttentionCase& c) { return int{c.softcap > 0}; }};
const Feature kSinks{"sinks", [](const AttentionCase& c) { return int{!c.sinks.empty()}; }};
const Feature kAlibi{"alibi", [](const AttentionCase& c) { return int{!c.alibi_slopes.empty()}; }};
const Feature kGqa{"gqa", [](const AttentionCase& c) { return int{c.heads_q > c.heads_kv}; }};
const Feature kBaseTwo{"base 2",
                       [](const AttentionCase& c) { return int{c.base == LseBase::Two}; }};
const Feature kEmptySequences{"empty sequences", [](const AttentionCase& c) {
                                int empty = 0;
                                for (const AttentionSequence& s : c.seqs) empty += s.k_len == 0;
                                return empty;
                              }};

/// Every case well formed and one k takes, and every feature drawn at least 20 times.
void expect_well_formed_declared_and_varied(const AttentionKernel& k,
                                            const std::vector<AttentionCase>& cases,
                                            const std::vector<Feature>& features) {
  std::vector<int> drawn(features.size(), 0);
  for (const AttentionCase& c : cases) {
    ASSERT_EQ(problem_for(k, c), "");
    for (std::size_t f = 0; f < features.size(); ++f) drawn[f] += features[f].count(c);
  }
  for (std::size_t f = 0; f < features.size(); ++f) EXPECT_GE(drawn[f], 20) << features[f].name;
}

AttentionKernel tiled_backward() {
  return builtin::declare_tiled_attention_backward(
      "osvs.test.tiled_backward",
      builtin::tiled_attention_backward<builtin::TiledAttentionBackward>);
}

/// A kernel whose host bits are recorded: how it is declared, the sample it runs (count cases
/// from a seed), the features that sample must draw, the environment variable that writes its
/// record instead and the record (in the source tree).
struct RecordedKernel {
  const char* name;
  AttentionKernel (*declare)();
  std::vector<AttentionCase> (*sample)(int count, std::uint64_t seed);
  std::vector<Feature> features;
  const char* write;
  const char* record;
};

const RecordedKernel kRecordedKernels[] = {
    {"forward",
     tiled_forward,
     attention_sample_cases,
     {kPaged, kSplit, kMasked, kSoftcap, kSinks, kAlibi, kEmptySequences},
     "OSVS_WRITE_TILED_BITS",
     "api/tests/tiled_attention_host_bits.txt"},
    {"backward",
     tiled_backward,
     attention_backward_sample_cases,
     {kMasked, kSoftcap, kSinks, kAlibi, kEmptySequences, kGqa, kBaseTwo},
     "OSVS_WRITE_TILED_BACKWARD_BITS",
     "api/tests/tiled_attention_backward_host_bits.txt"},
};

class TiledAttentionBits : public ::testing::TestWithParam<RecordedKernel> {};

TEST_P(TiledAttentionBits, SampleCasesAreWellFormedAndDeclared) {
  const RecordedKernel& k = GetParam();
  expect_well_formed_declared_and_varied(k.declare(), k.sample(kCases, kSeed), k.features);
}

TEST_P(TiledAttentionBits, HostKernelKeepsItsRecordedBits) {
  const RecordedKernel& k = GetParam();
  expect_recorded_bits(k.declare(), k.sample(kCases, kSeed), k.write, k.record);
}

INSTANTIATE_TEST_SUITE_P(Kernel, TiledAttentionBits, ::testing::ValuesIn(kRecordedKernels),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace osvs::test
