// fp8 K/V in the attention kind (docs/semantics.md §9, "fp8 K/V"): the declaration and the case's
// well-formedness name what is wrong; regression files carry kv_type and the scales only where a
// case has them (absent: K/V in the in type, as before them) and name a malformed one; the runner
// hands a kernel the stored bytes and the scales, paged and poisoned slots included; the
// generators draw fp8 K/V only for a kernel that declares them (every case when it takes fp8
// only); the oracle judges the dequantised values; osvs's fp8 kernel passes the accuracy law on
// its generated cases, and a kernel that ignores the scales fails it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "case_json.h"
#include "kind_cases.h"
#include "one_sequence_case.h"
#include "osvs/api/attention_laws.h"
#include "osvs/api/kind.h"
#include "osvs/api/regression.h"
#include "tiled_attention_fp8.h"

namespace osvs::test {
namespace {

/// One sequence of 2 queries and 5 keys, head_dim 2, f32 q, e4m3 K/V with scales 1.5 and 2^-4.
AttentionCase fp8_case() {
  AttentionCase c =
      one_sequence(2, 5, 2, {0.5f, -1.0f, 2.0f, 0.25f},
                   {1.0f, -2.0f, 0.375f, 3.0f, -0.5f, 448.0f, 0x1p-9f, 1.125f, -7.0f, 0.0f},
                   {2.0f, 1.0f, -3.0f, 0.5f, 1.75f, -0.125f, 4.0f, 8.0f, -1.0f, 0x1p-6f});
  c.kv_type = DType::E4M3;
  c.k_scale = 1.5f;
  c.v_scale = 0x1p-4f;
  return c;
}

AttentionKernel fp8_kernel(const char* name, void (*run)(const AttentionProblem&)) {
  return builtin::declare_tiled_attention_fp8(name, run);
}

std::string problem_with(void (*change)(AttentionCase&)) {
  AttentionCase c = fp8_case();
  change(c);
  return attention_case_problem(c);
}

TEST(Fp8Case, ProblemsAreNamed) {
  EXPECT_EQ(attention_case_problem(fp8_case()), "");
  EXPECT_NE(problem_with([](AttentionCase& c) { c.in_type = DType::E4M3; }).find("in_type e4m3"),
            std::string::npos);
  EXPECT_NE(problem_with([](AttentionCase& c) { c.kv_type = DType::BF16; }).find("kv_type bf16"),
            std::string::npos);
  EXPECT_NE(problem_with([](AttentionCase& c) { c.k_scale = 0; }).find("k_scale"),
            std::string::npos);
  EXPECT_NE(problem_with([](AttentionCase& c) { c.v_scale = NAN; }).find("v_scale"),
            std::string::npos);
  EXPECT_NE(problem_with([](AttentionCase& c) { c.v_scale = 0x1p65f; }).find("outside"),
            std::string::npos);
  EXPECT_NE(problem_with([](AttentionCase& c) { c.k[3] = 3.125f; }).find("k[3]"), std::string::npos)
      << "3.125 has 5 significant bits, e4m3 4";
  EXPECT_NE(problem_with([](AttentionCase& c) { c.v[0] = 480.0f; }).find("v[0]"), std::string::npos)
      << "480 lies past e4m3's largest finite value (its pattern is the NaN)";
  EXPECT_NE(problem_with([](AttentionCase& c) { c.kv_type = DType::E5M2; }).find("k[7]"),
            std::string::npos)
      << "1.125 has three significant bits, e5m2 two (every other k is an e5m2 value)";
  EXPECT_NE(problem_with([](AttentionCase& c) { c.kv_type.reset(); }).find("k_scale and v_scale"),
            std::string::npos);
  EXPECT_EQ(problem_with([](AttentionCase& c) {
              c.kv_type.reset();
              c.k_scale = c.v_scale = 1;
            }),
            "");
}

TEST(Fp8Declaration, RefusesWhatCannotApply) {
  const auto run = builtin::tiled_attention<builtin::TiledAttention>;
  EXPECT_EQ(declaration_problem(fp8_kernel("osvs.test.fp8", run)), "");
  AttentionKernel k = fp8_kernel("osvs.test.fp8", run);
  k.kv_types({DType::BF16});
  EXPECT_NE(declaration_problem(k).find("kv type bf16"), std::string::npos);
  k.kv_types({}, true);
  EXPECT_NE(declaration_problem(k).find("fp8 K/V only but declares no kv type"), std::string::npos);
  AttentionKernel values = builtin::declare_tiled_attention("osvs.test.fp8_values", run);
  values.in_types({DType::E5M2});
  EXPECT_NE(declaration_problem(values).find("the fp8 type e5m2 for values"), std::string::npos);
  AttentionKernel backward = builtin::declare_tiled_attention("osvs.test.fp8_backward", run);
  backward.backward().kv_types({DType::E4M3});
  EXPECT_NE(declaration_problem(backward).find("declares fp8 K/V"), std::string::npos);
}

TEST(Fp8Regression, CarriesKvTypeAndScalesOnlyWhereACaseHasThem) {
  const AttentionCase c = fp8_case();
  const nlohmann::json j = api::case_json(c);
  EXPECT_EQ(j.at("kv_type"), "e4m3");
  AttentionCase back;
  api::read_case(j, back);
  EXPECT_EQ(back.kv_type, c.kv_type);
  EXPECT_EQ(back.k_scale, c.k_scale);
  EXPECT_EQ(back.v_scale, c.v_scale);
  EXPECT_EQ(api::case_json(back), j);
  // A case without fp8 K/V writes none of the three fields: its file is what it was before them,
  // and a file without them reads as K/V in the in type.
  AttentionCase plain = c;
  plain.kv_type.reset();
  plain.k_scale = plain.v_scale = 1;
  const nlohmann::json p = api::case_json(plain);
  for (const char* field : {"kv_type", "k_scale", "v_scale"}) EXPECT_FALSE(p.contains(field));
  api::read_case(p, back);
  EXPECT_FALSE(back.kv_type);
  EXPECT_EQ(back.k_scale, 1.0f);
  // Malformed: an unknown type, a value type, scales without a type, a missing scale.
  const auto error_of = [](nlohmann::json in) -> std::string {
    AttentionCase x;
    try {
      api::read_case(in, x);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  nlohmann::json bad = j;
  bad["kv_type"] = "e3m4";
  EXPECT_NE(error_of(bad).find("'kv_type': not e4m3 or e5m2"), std::string::npos);
  bad["kv_type"] = "f16";
  EXPECT_NE(error_of(bad).find("'kv_type': not e4m3 or e5m2"), std::string::npos);
  bad = p;
  bad["k_scale"] = j.at("k_scale");
  EXPECT_NE(error_of(bad).find("without 'kv_type'"), std::string::npos);
  bad = j;
  bad.erase("v_scale");
  EXPECT_NE(error_of(bad).find("v_scale"), std::string::npos);
  bad = j;
  bad["k_scale"] = nlohmann::json::array({"0x1p+70"});
  EXPECT_NE(error_of(bad).find("k_scale"), std::string::npos);
}

/// What the last launch of the recording kernel saw.
struct Seen {
  DType kv_type = DType::F32;
  float k_scale = 0, v_scale = 0;
  std::vector<std::uint8_t> k, v;
};
Seen seen;

void recording_kernel(const AttentionProblem& p) {
  seen.kv_type = p.kv_type;
  seen.k_scale = p.k_scale;
  seen.v_scale = p.v_scale;
  const std::int64_t tokens = p.page_size > 0 ? std::int64_t{p.num_pages} * p.page_size : p.total_k;
  const auto* k = static_cast<const std::uint8_t*>(p.k_ptr);
  const auto* v = static_cast<const std::uint8_t*>(p.v_ptr);
  seen.k.assign(k, k + tokens * p.heads_kv * p.head_dim_qk);
  seen.v.assign(v, v + tokens * p.heads_kv * p.head_dim_v);
  builtin::tiled_attention<builtin::TiledAttention>(p);
}

TEST(Fp8Runner, HandsTheKernelTheStoredBytesAndTheScales) {
  AttentionCase c = fp8_case();
  const AttentionKernel k = fp8_kernel("osvs.test.fp8_recording", recording_kernel);
  run_attention_kernel(k, c);
  EXPECT_EQ(seen.kv_type, DType::E4M3);
  EXPECT_EQ(seen.k_scale, 1.5f);
  EXPECT_EQ(seen.v_scale, 0x1p-4f);
  ASSERT_EQ(seen.k.size(), c.k.size());
  for (std::size_t i = 0; i < c.k.size(); ++i) {
    EXPECT_EQ(seen.k[i], to_e4m3_bits(c.k[i])) << i;
    EXPECT_EQ(seen.v[i], to_e4m3_bits(c.v[i])) << i;
  }
  // Paged, pages of 3 in the order {1, 0} and a spare page 2: the unused slot of the last page
  // and the spare page hold the fill, here e4m3's largest finite value (the poison law's inf).
  c.page_size = 3;
  c.page_order = {1, 0, 2};
  run_attention_kernel(k, c, AttentionFill{448.0f});
  ASSERT_EQ(seen.k.size(), 9u * 2);
  const std::uint8_t fill = to_e4m3_bits(448.0f);
  for (int slot = 0; slot < 3; ++slot)
    for (int d = 0; d < 2; ++d) {
      EXPECT_EQ(seen.k[static_cast<std::size_t>((3 + slot) * 2 + d)],
                to_e4m3_bits(c.k[slot * 2 + d]));
      EXPECT_EQ(seen.k[static_cast<std::size_t>((6 + slot) * 2 + d)], fill);
    }
  // Keys 3 and 4: logical page 1, physical page 0, slots 0 and 1; its slot 2 unused.
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(seen.k[static_cast<std::size_t>(0 * 2 + d)], to_e4m3_bits(c.k[3 * 2 + d]));
    EXPECT_EQ(seen.k[static_cast<std::size_t>(1 * 2 + d)], to_e4m3_bits(c.k[4 * 2 + d]));
    EXPECT_EQ(seen.k[static_cast<std::size_t>(2 * 2 + d)], fill);
  }
  // A kernel that declares no kv_types takes no fp8 case, one that takes fp8 only no other.
  const AttentionKernel plain = builtin::declare_tiled_attention(
      "osvs.test.plain", builtin::tiled_attention<builtin::TiledAttention>);
  EXPECT_EQ(undeclared_in(plain, fp8_case()), "K/V in e4m3 (kv_types)");
  AttentionCase in_type = fp8_case();
  in_type.kv_type.reset();
  in_type.k_scale = in_type.v_scale = 1;
  EXPECT_EQ(undeclared_in(k, in_type), "K/V in the in type (it declares fp8 K/V only)");
}

TEST(Fp8Oracle, JudgesTheDequantisedValues) {
  // Scales of two bits or fewer: k_scale k and v_scale v are floats, so the case with fp8 K/V
  // and the one with the dequantised floats in f32 are the same attention.
  const AttentionCase c = fp8_case();
  AttentionCase dequantised = c;
  dequantised.kv_type.reset();
  dequantised.k_scale = dequantised.v_scale = 1;
  for (float& x : dequantised.k) x *= c.k_scale;  // exact: 4 + 2 bits, normal
  for (float& x : dequantised.v) x *= c.v_scale;
  const AttentionExact a = exact_attention(c, DType::F32),
                       b = exact_attention(dequantised, DType::F32);
  EXPECT_EQ(a.o_rounded, b.o_rounded);
  EXPECT_EQ(a.lse_rounded, b.lse_rounded);
  for (std::size_t i = 0; i < a.o.size(); ++i)
    EXPECT_LE(std::fabs(a.magnitude[i] - b.magnitude[i]), 0x1p-50 * b.magnitude[i]);
}

/// The generated cases of `k` for the accuracy law (seeded, small size), how many with fp8 K/V.
int fp8_cases_of(const AttentionKernel& k, int n) {
  const AttentionLaw& accuracy = *AttentionKind::find_law("accuracy");
  int fp8 = 0;
  for (int i = 0; i < n; ++i) {
    const AttentionCase c =
        testbed::law_cases(k, accuracy)(rc::Random(20260313 + static_cast<std::uint64_t>(i)), 20)
            .value();
    EXPECT_EQ(attention_case_problem(c), "");
    EXPECT_EQ(undeclared_in(k, c), "");
    if (!c.kv_type) continue;
    ++fp8;
    EXPECT_TRUE(k.takes_kv_type(*c.kv_type));
    for (float s : {c.k_scale, c.v_scale})
      EXPECT_NE(std::find(kKvScales.begin(), kKvScales.end(), s), kKvScales.end()) << s;
  }
  return fp8;
}

TEST(Fp8Generators, DrawOnlyWhatIsDeclared) {
  const auto run = builtin::tiled_attention<builtin::TiledAttention>;
  EXPECT_EQ(fp8_cases_of(builtin::declare_tiled_attention("osvs.test.plain", run), 40), 0);
  EXPECT_EQ(fp8_cases_of(fp8_kernel("osvs.test.fp8_only", run), 40), 40);
  AttentionKernel both = fp8_kernel("osvs.test.fp8_or_not", run);
  both.kv_types({DType::E5M2}, false);
  const int some = fp8_cases_of(both, 40);
  EXPECT_GT(some, 5);
  EXPECT_LT(some, 35);
  // Drawn last: a kernel's cases up to its fp8 K/V are those of the kernel without kv_types.
  const AttentionLaw& accuracy = *AttentionKind::find_law("accuracy");
  const AttentionKernel plain = builtin::declare_tiled_attention("osvs.test.plain", run);
  for (int i = 0; i < 10; ++i) {
    const rc::Random seed(20260314 + static_cast<std::uint64_t>(i));
    const AttentionCase a = testbed::law_cases(plain, accuracy)(seed, 20).value();
    const AttentionCase b = testbed::law_cases(both, accuracy)(seed, 20).value();
    EXPECT_EQ(api::case_json(a).at("q"), api::case_json(b).at("q"));
    EXPECT_EQ(a.seqs, b.seqs);
    EXPECT_EQ(a.kv_splits, b.kv_splits);
  }
}

/// The tiled kernel reading fp8 K/V as if both scales were 1 (the stored values attended to).
void scales_ignored(const AttentionProblem& p) {
  AttentionProblem q = p;
  q.k_scale = q.v_scale = 1;
  builtin::tiled_attention<builtin::TiledAttention>(q);
}

TEST(Fp8Kernel, TheTiledKernelHoldsItsContractAndIgnoringTheScalesFails) {
  const AttentionLaw& accuracy = *AttentionKind::find_law("accuracy");
  const auto run = builtin::tiled_attention<builtin::TiledAttention>;
  EXPECT_TRUE(AttentionKind::check(accuracy, fp8_kernel("osvs.test.fp8", run), fp8_case()).holds());
  const Verdict v = AttentionKind::check(
      accuracy, fp8_kernel("osvs.test.fp8_unscaled", scales_ignored), fp8_case());
  EXPECT_TRUE(v.fails());
  EXPECT_NE(v.explanation.find("ulp of M > contract"), std::string::npos) << v.explanation;
}

}  // namespace
}  // namespace osvs::test
