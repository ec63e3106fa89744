// A backward attention kernel on the attention kind (docs/semantics.md §9.4): what the runner
// gives it (the forward's o and lse as the oracle rounds them) and what it checks it did, the
// declarations refused, and laws that fail on gradients that are wrong and hold on the conventions.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/api/attention_laws.h"
#include "osvs/api/attention_runner.h"
#include "osvs/api/kind.h"
#include "osvs/api/registry.h"

namespace osvs::test {
namespace {

/// Two queries over three keys, head_dim 2, causal bottom-right (query 0 keeps keys 0 and 1,
/// query 1 all three), dout nonzero.
AttentionCase two_queries() {
  AttentionCase c;
  c.seqs = {{2, 3}};
  c.head_dim_qk = c.head_dim_v = 2;
  c.q = {0.5f, -1, 1, 0.25f};
  c.k = {1, 2, -0.5f, 1, 0.75f, -1};
  c.v = {1, -2, 0.5f, 3, -1, 0.25f};
  c.dout = {1, 0.5f, -0.75f, 2};
  c.mask.kind = MaskKind::Causal;
  return c;
}

/// Every gradient +0 (and delta +0): right for rows and keys without terms only.
void zero_gradients(const AttentionProblem& p) {
  const std::int64_t dq = p.total_q * p.heads_q * p.head_dim_qk;
  const std::int64_t dk = p.total_k * p.heads_kv * p.head_dim_qk;
  const std::int64_t dv = p.total_k * p.heads_kv * p.head_dim_v;
  for (std::int64_t i = 0; i < dq; ++i) p.dq<float>()[i] = 0;
  for (std::int64_t i = 0; i < dk; ++i) p.dk<float>()[i] = 0;
  for (std::int64_t i = 0; i < dv; ++i) p.dv<float>()[i] = 0;
  for (std::int64_t i = 0; p.delta != nullptr && i < p.total_q * p.heads_q; ++i) p.delta[i] = 0;
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

TEST(AttentionBackwardDeclaration, PagesSplitsAndSinksAreRefused) {
  AttentionKernel paged = backward_kernel("osvs.test.paged_backward", zero_gradients);
  paged.page_sizes({4});
  EXPECT_NE(declaration_problem(paged).find("a backward kernel reads contiguous K/V"),
            std::string::npos)
      << declaration_problem(paged);
  AttentionKernel sinks = backward_kernel("osvs.test.sinks_backward", zero_gradients);
  sinks.sinks();
  EXPECT_NE(declaration_problem(sinks), "");
  AttentionKernel negative = backward_kernel("osvs.test.negative", zero_gradients);
  negative.grad_accuracy({-1, 0, 0, 0});
  EXPECT_NE(declaration_problem(negative).find("gradient contract"), std::string::npos);
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
