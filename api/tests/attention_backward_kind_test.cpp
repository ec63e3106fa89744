// A backward attention kernel on the attention kind (docs/semantics.md §9.4): what the runner
// gives it (the forward's o and lse as the oracle rounds them) and what it checks it did, the
// declarations refused, and laws that fail on gradients that are wrong and hold on the conventions.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "one_sequence_case.h"
#include "osvs/api/attention_laws.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/kind.h"
#include "osvs/api/registry.h"

namespace osvs::test {
namespace {

/// Two queries over three keys, head_dim 2, causal bottom-right (query 0 keeps keys 0 and 1,
/// query 1 all three), dout nonzero.
AttentionCase two_queries() {
  AttentionCase c = one_sequence(2, 3, 2, {0.5f, -1, 1, 0.25f}, {1, 2, -0.5f, 1, 0.75f, -1},
                                 {1, -2, 0.5f, 3, -1, 0.25f});
  c.dout = {1, 0.5f, -0.75f, 2};
  c.mask.kind = MaskKind::Causal;
  return c;
}

/// Every gradient +0 (and delta, dsinks +0): right for rows, keys and heads without terms only.
void zero_gradients(const AttentionProblem& p) {
  const std::int64_t dq = p.total_q * p.heads_q * p.head_dim_qk;
  const std::int64_t dk = p.total_k * p.heads_kv * p.head_dim_qk;
  const std::int64_t dv = p.total_k * p.heads_kv * p.head_dim_v;
  for (std::int64_t i = 0; i < dq; ++i) p.dq<float>()[i] = 0;
  for (std::int64_t i = 0; i < dk; ++i) p.dk<float>()[i] = 0;
  for (std::int64_t i = 0; i < dv; ++i) p.dv<float>()[i] = 0;
  for (std::int64_t i = 0; p.delta != nullptr && i < p.total_q * p.heads_q; ++i) p.delta[i] = 0;
  for (int h = 0; p.dsinks != nullptr && h < p.heads_q; ++h) p.dsinks[h] = 0;
}

AttentionKernel backward_kernel(const char* name, void (*run)(const AttentionProblem&)) {
  return AttentionKernel(name, Where::Host)
      .run(run)
      .masks({MaskKind::None, MaskKind::Causal, MaskKind::Window})
      .lse({LseBase::E}, AttnLseLayout::HeadsTokens)
      .backward(true);
}

std::string failure_of(const AttentionKernel& k, const AttentionCase& c) {
  try {
    run_attention_kernel(k, c);
  } catch (const KernelFailure& e) {
    return e.what();
  }
  return "";
}

std::vector<float> given_o, given_lse;

/// Records the o and lse the runner gives, then writes zero gradients.
void records_its_inputs(const AttentionProblem& p) {
  given_o.assign(p.o<float>(), p.o<float>() + p.total_q * p.heads_q * p.head_dim_v);
  given_lse.assign(p.lse, p.lse + p.total_q * p.heads_q);
  zero_gradients(p);
}

TEST(AttentionBackwardRunner, GivesTheForwardAsTheOracleRoundsIt) {
  const AttentionCase c = two_queries();
  ASSERT_EQ(failure_of(backward_kernel("osvs.test.records", records_its_inputs), c), "");
  const AttentionExact e = exact_attention(c, DType::F32);
  EXPECT_EQ(given_o, e.o_rounded);
  EXPECT_EQ(given_lse, e.lse_rounded);
}

TEST(AttentionBackwardRunner, NamesWhatAKernelDidToMemory) {
  const AttentionCase c = two_queries();
  const std::string left = failure_of(backward_kernel("osvs.test.skips_dv",
                                                      [](const AttentionProblem& p) {
                                                        AttentionProblem q = p;
                                                        std::vector<float> scratch(64);
                                                        q.dv_ptr = scratch.data();
                                                        zero_gradients(q);
                                                      }),
                                      c);
  EXPECT_NE(left.find("left dv[token 0][head 0][0] unwritten"), std::string::npos) << left;
  const std::string modified = failure_of(backward_kernel("osvs.test.writes_o",
                                                          [](const AttentionProblem& p) {
                                                            zero_gradients(p);
                                                            p.o<float>()[0] = 7;
                                                          }),
                                          c);
  EXPECT_NE(modified.find("modified its input o"), std::string::npos) << modified;
  // A batch without queries: its dout is empty by its shape, not a forward's case (found by the
  // registered fuzzer through batch_invariance's derived calls)
  AttentionCase no_queries = c;
  no_queries.seqs = {{0, 3}};
  no_queries.q.clear();
  no_queries.dout.clear();
  EXPECT_EQ(failure_of(backward_kernel("osvs.test.zero", zero_gradients), no_queries), "");
  AttentionCase forward_case = c;
  forward_case.dout.clear();
  EXPECT_THROW(
      run_attention_kernel(backward_kernel("osvs.test.zero", zero_gradients), forward_case),
      std::invalid_argument);
}

TEST(AttentionBackwardDeclaration, PagesAndSplitsAreRefusedSinksTaken) {
  AttentionKernel paged = backward_kernel("osvs.test.paged_backward", zero_gradients);
  paged.page_sizes({4});
  EXPECT_NE(declaration_problem(paged).find("a backward kernel reads contiguous K/V"),
            std::string::npos)
      << declaration_problem(paged);
  AttentionKernel split = backward_kernel("osvs.test.split_backward", zero_gradients);
  split.kv_splits(KvSplit::Count, {2});
  EXPECT_NE(declaration_problem(split), "");
  AttentionKernel sinks = backward_kernel("osvs.test.sinks_backward", zero_gradients);
  sinks.sinks();
  EXPECT_EQ(declaration_problem(sinks), "");
  AttentionKernel negative = backward_kernel("osvs.test.negative", zero_gradients);
  negative.grad_accuracy({-1, 0, 0, 0});
  EXPECT_NE(declaration_problem(negative).find("gradient contract"), std::string::npos);
}

// Two sequences of one query over one key, each score equal to the sink (0.5): P = P_sink = 1/2,
// delta = dP / 2, so each row's term of dsinks is -dP / 4 and its magnitude |dP| / 4 (|dP| =
// sum_c |dout_c v_c|), the head's the sum over both sequences: dP = 3 - 2 = 1 and -4 + 1 = -3,
// |dP| = 5 and 5, so dsinks = -(1 - 3) / 4 = 0.5 with magnitude (5 + 5) / 4 = 2.5.
TEST(AttentionBackwardExact, SinkGradientSumsTheHeadsRowsOverTheBatch) {
  AttentionCase c;
  c.seqs = {{1, 1}, {1, 1}};
  c.head_dim_qk = c.head_dim_v = 2;
  c.q = {1, 0, 0.25f, 1};
  c.k = {0.5f, 3, -2, 1};  // q . k: 0.5, then -0.5 + 1 = 0.5
  c.v = {1, -2, 4, 0.5f};
  c.dout = {3, 1, -1, 2};
  c.sinks = {0.5f};
  const AttentionGradExact e = exact_attention_backward(c);
  ASSERT_TRUE(e.finite);
  ASSERT_EQ(e.dsinks.size(), 1u);
  EXPECT_EQ(e.sink_rows, (std::vector<std::int64_t>{2}));
  EXPECT_LT(e.dsinks_error, 0x1p-39);
  EXPECT_LE(std::fabs(e.dsinks[0] - 0.5), e.dsinks_error * 2.5 + 0x1p-998);
  EXPECT_LE(std::fabs(e.dsinks_magnitude[0] - 2.5), e.dsinks_error * 2.5 + 0x1p-998);
  // delta = dP / 2 of each row, with the sink in the denominator
  EXPECT_LE(std::fabs(e.delta[0] - 0.5), e.error * 2.5 + 0x1p-1000);
  EXPECT_LE(std::fabs(e.delta[1] + 1.5), e.error * 2.5 + 0x1p-1000);
}

// The runner gives a case with sinks a dsinks of one float a head and names one left unwritten;
// a head none of whose rows keeps a key must have dsinks +0 (empty_rows).
TEST(AttentionBackwardRunner, DsinksIsGuardedAndItsEmptyHeadsAreZero) {
  AttentionCase c = two_queries();
  c.sinks = {1.5f};
  AttentionKernel skips = backward_kernel("osvs.test.skips_dsinks", [](const AttentionProblem& p) {
    AttentionProblem q = p;
    q.dsinks = nullptr;
    zero_gradients(q);
  });
  skips.sinks();
  EXPECT_NE(failure_of(skips, c).find("left dsinks[head 0] unwritten"), std::string::npos)
      << failure_of(skips, c);
  AttentionKernel zero = backward_kernel("osvs.test.zero_with_sinks", zero_gradients);
  zero.sinks();
  EXPECT_EQ(failure_of(zero, c), "");
  // Without keys every row is empty: dsinks must be +0.
  AttentionCase empty = c;
  empty.seqs = {{2, 0}};
  empty.k.clear();
  empty.v.clear();
  const AttentionLaw& law = *AttentionKind::find_law("empty_rows");
  EXPECT_FALSE(AttentionKind::check(law, zero, empty).fails());
  AttentionKernel stray = backward_kernel("osvs.test.stray_dsinks", [](const AttentionProblem& p) {
    zero_gradients(p);
    if (p.dsinks != nullptr) p.dsinks[0] = -0.0f;
  });
  stray.sinks();
  const Verdict v = AttentionKind::check(law, stray, empty);
  EXPECT_TRUE(v.fails());
  EXPECT_NE(v.explanation.find("dsinks[head 0] = -0x0p+0 (-0) for a head whose rows keep no key"),
            std::string::npos)
      << v.explanation;
}

TEST(AttentionBackwardLaws, ZeroGradientsFailAccuracyAndHoldTheConventions) {
  const AttentionKernel k = backward_kernel("osvs.test.zero", zero_gradients);
  const AttentionCase c = two_queries();
  // One kept key: P = 1, so dS = dP - delta = 0 and dq = dk = 0 exactly, but dv = dout.
  AttentionCase one_key = c;
  one_key.seqs = {{1, 1}};
  one_key.q.resize(2);
  one_key.k.resize(2);
  one_key.v.resize(2);
  one_key.dout.resize(2);
  const AttentionGradExact e = exact_attention_backward(one_key);
  ASSERT_TRUE(e.finite);
  EXPECT_EQ(e.dq, (std::vector<double>{0, 0}));
  EXPECT_EQ(e.dk, (std::vector<double>{0, 0}));
  EXPECT_EQ(e.dv, (std::vector<double>{1, 0.5}));
  const Verdict wrong_dv = AttentionKind::check(*AttentionKind::find_law("accuracy"), k, one_key);
  EXPECT_TRUE(wrong_dv.fails());
  EXPECT_NE(wrong_dv.explanation.find("dv[token 0][kv head 0][0] = 0x0p+0"), std::string::npos)
      << wrong_dv.explanation;
  for (const char* law : {"empty_rows", "determinism", "poison"}) {
    const Verdict v = AttentionKind::check(*AttentionKind::find_law(law), k, c);
    EXPECT_FALSE(v.fails()) << law << ": " << v.explanation;
  }
  // A kernel whose gradient of a key no query keeps is not +0 fails empty_rows: with a window
  // of one key left of the diagonal, key 0 is kept by no query of two over three keys.
  AttentionCase window = c;
  window.mask = {MaskKind::Window, MaskAlign::BottomRight, 0, 0};
  const AttentionKernel stray = backward_kernel("osvs.test.stray", [](const AttentionProblem& p) {
    zero_gradients(p);
    p.dk<float>()[0] = 1;
  });
  const Verdict v = AttentionKind::check(*AttentionKind::find_law("empty_rows"), stray, window);
  EXPECT_TRUE(v.fails());
  EXPECT_NE(
      v.explanation.find("dk[token 0][kv head 0][0] = 0x1p+0 (1) for a key that no row keeps"),
      std::string::npos)
      << v.explanation;
}

}  // namespace
}  // namespace osvs::test
