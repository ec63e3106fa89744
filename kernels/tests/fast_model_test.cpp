// The fast kernel's plan, order and CPU model (fast_plan.h, fast_schedule.h): the layout covers
// every element once, the trees are the documented ones (spelled out by hand on inputs where
// another order gives other bits), the compensated difference is exact, the conventions hold,
// and other combines are refused (the fast-kernel mutants' effects: mutation/tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "osvs/kernels/compensated_exp.h"
#include "osvs/kernels/executor.h"
#include "osvs/kernels/fast_schedule.h"

namespace osvs {
namespace {

std::vector<float> normal_row(std::int64_t n, std::uint32_t seed, float sigma = 10.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, sigma);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (float& v : x) v = normal(rng);
  return x;
}

SoftmaxResult run_fast(const std::vector<float>& x, std::int64_t rows, std::int64_t cols) {
  const SoftmaxBatch b{KernelKind::Fast, CombineKind::Hardened, 256, rows, cols, x};
  return make_cpu_executor()->softmax(b);
}

TEST(FastPlan, TheIssuesShapes) {
  const FastPlan warp = fast_plan(1024), block = fast_plan(8192), two = fast_plan(32768),
                 split = fast_plan(1 << 20);
  EXPECT_EQ(warp.threads, 32);
  EXPECT_EQ(warp.vec, 8);
  EXPECT_EQ(warp.chunks, 1);
  EXPECT_EQ(block.threads, 256);
  EXPECT_EQ(block.chunks, 1);
  EXPECT_EQ(two.threads, 256);  // a cluster of four blocks
  EXPECT_EQ(two.blocks, 4);
  EXPECT_EQ(two.chunks, 1);
  EXPECT_EQ(fast_plan(kFastBlockRowMax).blocks, 1);
  EXPECT_EQ(fast_plan(kFastBlockRowMax + 1).blocks, 2);
  EXPECT_EQ(fast_plan(kFastSmallClusterRowMax).threads, 256);
  EXPECT_EQ(fast_plan(kFastSmallClusterRowMax).blocks, kFastClusterMax);
  EXPECT_EQ(fast_plan(kFastSmallClusterRowMax + 1).threads, 512);
  EXPECT_EQ(fast_plan(kFastSmallClusterRowMax + 1).blocks, 5);
  EXPECT_EQ(fast_plan(kFastClusterRowMax).blocks, kFastClusterMax);
  EXPECT_EQ(fast_plan(kFastClusterRowMax + 1).blocks, 1);
  EXPECT_EQ(fast_plan(kFastClusterRowMax + 1).chunks, kFastClusterMax + 1);
  EXPECT_EQ(split.chunks, 64);
  EXPECT_EQ(split.chunk_span(), kFastChunkElems);
}

TEST(FastPlan, EveryElementHasExactlyOneSlot) {
  for (std::int64_t n :
       {0,    1,     3,     4,     5,     127,   128,   129,   1000,   1024,   1025,   2049,
        5000, 16384, 16385, 32768, 32769, 40000, 65536, 65537, 100003, 131072, 131073, 200001}) {
    const FastPlan p = fast_plan(n);
    EXPECT_TRUE(p.chunks == 1 || p.blocks == 1) << n;
    EXPECT_GE(p.parts() * p.chunk_span(), n) << n;
    EXPECT_LT((p.parts() - 1) * p.chunk_span(), n > 0 ? n : 1) << n;  // no empty part
    if (p.parts() == 1 && n > 0) {
      EXPECT_LT(p.chunk_span() / 2, n > 4 * 32 ? n : 4 * 32 + 1) << n;  // not twice too wide
    }
    std::vector<int> hits(static_cast<std::size_t>(n), 0);
    std::vector<float> row(static_cast<std::size_t>(n));
    for (std::int64_t j = 0; j < n; ++j) row[static_cast<std::size_t>(j)] = static_cast<float>(j);
    std::vector<float> v(static_cast<std::size_t>(p.per_thread()));
    for (std::int64_t c = 0; c < p.parts(); ++c)
      for (int t = 0; t < p.threads; ++t) {
        model_fast_gather(row.data(), n, p, c, t, v.data());
        for (float e : v)
          if (e != -INFINITY) ++hits[static_cast<std::size_t>(e)];
      }
    for (std::int64_t j = 0; j < n; ++j) ASSERT_EQ(hits[static_cast<std::size_t>(j)], 1) << n;
  }
}

TEST(FastSchedule, PairwiseStreamIsThePairwiseTreeForPowersOfTwo) {
  // A combine that records the bracketing.
  const auto get = [](std::int64_t i) { return std::to_string(i); };
  const auto bracket = [](const std::string& a, const std::string& b) {
    return "(" + a + " " + b + ")";
  };
  EXPECT_EQ(pairwise_stream(8, std::string("e"), get, bracket),
            pairwise_tree<8>(
                0, [&](int i) { return get(i); }, bracket));
  EXPECT_EQ(pairwise_tree<4>(
                0, [&](int i) { return get(i); }, bracket),
            "((0 1) (2 3))");
  EXPECT_EQ(pairwise_stream(6, std::string("e"), get, bracket), "(((0 1) (2 3)) (4 5))");
  EXPECT_EQ(pairwise_stream(7, std::string("e"), get, bracket), "(((0 1) (2 3)) ((4 5) 6))");
  EXPECT_EQ(pairwise_stream(0, std::string("e"), get, bracket), "e");
}

TEST(FastSchedule, ThreadMaxAndSumAreTheSpelledOutSteps) {
  const std::vector<float> v = {0.3f, -7.1f, 2.25f, -0.9f, 1.7f, -30.5f, 2.0f, 0.01f};
  EXPECT_EQ(fast_thread_max<8>(v.data()), 2.25f);
  const float M = 3.5f;  // the chunk's maximum, from other threads
  auto e = [&](int i) {
    return static_cast<double>(
        compensated_exp_diff_with<PortableExp>(v[static_cast<std::size_t>(i)], M));
  };
  const double d = ((e(0) + e(1)) + (e(2) + e(3))) + ((e(4) + e(5)) + (e(6) + e(7)));
  EXPECT_EQ(fast_thread_sum<8>(v.data(), M), d);  // binary64 sums, the same tree
  std::vector<float> special = v;
  special[5] = NAN;
  EXPECT_EQ(fast_thread_max<8>(special.data()), INFINITY) << "NaN is carried as +inf";
  special[5] = INFINITY;
  EXPECT_EQ(fast_thread_max<8>(special.data()), INFINITY);
  EXPECT_EQ(float_bits(FastMaxAlg{}.combine(-0.0f, 0.0f)), float_bits(0.0f));
  EXPECT_EQ(float_bits(FastMaxAlg{}.combine(0.0f, -0.0f)), float_bits(0.0f));
}

TEST(FastSchedule, WarpRowIsTheMaxFoldThenTheSumFold) {
  // n = 100 < 128: a warp, one float4 a lane; lane l holds x[4l .. 4l + 3], lanes 25.. hold -inf.
  const std::vector<float> x = normal_row(100, 3);
  std::array<std::array<float, 4>, 32> held;
  std::array<float, 32> lane_m;
  std::array<double, 32> lane_d;
  for (int l = 0; l < 32; ++l) {
    for (int c = 0; c < 4; ++c) held[l][c] = 4 * l + c < 100 ? x[4 * l + c] : -INFINITY;
    lane_m[l] = fast_thread_max<4>(held[l].data());
  }
  const float M = model_warp_reduce(lane_m, FastMaxAlg{});
  EXPECT_EQ(M, *std::max_element(x.begin(), x.end()));
  for (int l = 0; l < 32; ++l) lane_d[l] = fast_thread_sum<4>(held[l].data(), M);
  // the chunk's binary64 sum S, then s.d = fl32(S), lo = fl32(S - s.d), d = fl32(s.d + lo)
  const double S = model_warp_reduce(lane_d, FastSumAlg{});
  const float sd = static_cast<float>(S);
  const State expect{M, sd + static_cast<float>(S - static_cast<double>(sd))};
  const SoftmaxResult r = run_fast(x, 1, 100);
  EXPECT_TRUE(bitwise_equal(r.row_state[0], expect));
  for (int j = 0; j < 100; ++j)
    EXPECT_EQ(
        float_bits(r.y[j]),
        float_bits(compensated_exp_diff_with<PortableExp>(x[j], expect.m) * (1.0f / expect.d)));
}

TEST(FastSchedule, SplitRowMergesChunkStatesInTheDocumentedOrder) {
  // 9 chunks (q = 1): threads 0 .. 8 hold the chunk states, the rest the initial one; the warp
  // tree then the block tree of 16 warps, over fast_merge; the row's d = fl(s.d + lo).
  const std::int64_t n = kFastClusterRowMax + 77;
  const std::vector<float> x = normal_row(n, 4);
  const FastPlan p = fast_plan(n);
  ASSERT_EQ(p.chunks, 9);
  std::vector<FastMergeState> thread_v(static_cast<std::size_t>(p.threads),
                                       FastMergeAlg{}.initial());
  for (int c = 0; c < 9; ++c) thread_v[c] = model_fast_chunk(x.data(), n, p, c, FastFloatAlg{});
  std::array<FastMergeState, 32> lanes;
  for (int l = 0; l < 32; ++l) lanes[l] = thread_v[l];
  std::array<FastMergeState, 32> warps;
  warps.fill(FastMergeAlg{}.initial());
  warps[0] = model_warp_reduce(lanes, FastMergeAlg{});
  const FastMergeState merged = model_warp_reduce(warps, FastMergeAlg{});
  const State expect = fast_row_state(merged);
  EXPECT_TRUE(bitwise_equal(run_fast(x, 1, n).row_state[0], expect));
  // the merge's state is the verified combine's, bit for bit; lo only refines d
  State plain = identity_state();
  for (int c = 0; c < 9; ++c) plain = FastCombine::combine(plain, thread_v[c].s);
  EXPECT_EQ(plain.m, merged.s.m);
}

/// Step 6 spelled out: fl(fast_term(x, m_c) * fl(fast_term(m_c, m) / d)).
float scaled_output(float x, float m_c, State row) {
  const float e = compensated_exp_diff_with<PortableExp>(x, m_c);
  const float a = compensated_exp_diff_with<PortableExp>(m_c, row.m) / row.d;
  return e * a;
}

TEST(FastSchedule, ClusterRowMergesItsBlocksStatesInOneWarp) {
  // 3 blocks, each with its own maximum (the row's is in the last block's tail): lanes 0 .. 2 of
  // one warp hold the block states, the rest the initial one, folded by the warp tree over
  // fast_merge; every block writes its terms against its own maximum times its scale.
  const std::int64_t n = 2 * kFastBlockRowMax + 77;
  std::vector<float> x = normal_row(n, 5);
  for (std::int64_t j = 0; j < kFastBlockRowMax; ++j)
    x[static_cast<std::size_t>(j)] -= 50.0f;  // block 0's maximum about 50 below the others'
  x[static_cast<std::size_t>(n - 3)] = 70.0f;
  const FastPlan p = fast_plan(n);
  ASSERT_EQ(p.blocks, 3);
  std::array<FastMergeState, 32> lanes;
  lanes.fill(FastMergeAlg{}.initial());
  for (int b = 0; b < 3; ++b) lanes[b] = model_fast_chunk(x.data(), n, p, b, FastFloatAlg{});
  EXPECT_EQ(lanes[2].s.m, 70.0f);
  EXPECT_LT(lanes[0].s.m, 0.0f);
  const State expect = fast_row_state(model_warp_reduce(lanes, FastMergeAlg{}));
  const SoftmaxResult r = run_fast(x, 1, n);
  EXPECT_TRUE(bitwise_equal(r.row_state[0], expect));
  for (std::int64_t j = 0; j < n; j += 97) {
    const auto k = static_cast<std::size_t>(j);
    ASSERT_EQ(float_bits(r.y[k]),
              float_bits(scaled_output(x[k], lanes[j / p.chunk_span()].s.m, expect)))
        << j;
  }
}

TEST(FastSchedule, SplitRowWritesEachChunksTermsScaled) {
  // step 6 of a split row: chunk c's terms against its own maximum, times its scale; chunk 1
  // about 50 below the row's maximum (subnormal outputs), chunk 2 about 95 (a subnormal scale)
  const std::int64_t n = kFastClusterRowMax + 3 * kFastChunkElems + 9;
  std::vector<float> x = normal_row(n, 6);
  for (std::int64_t j = kFastChunkElems; j < 3 * kFastChunkElems; ++j)
    x[static_cast<std::size_t>(j)] -= j < 2 * kFastChunkElems ? 50.0f : 95.0f;
  const FastPlan p = fast_plan(n);
  ASSERT_GT(p.chunks, 3);
  std::vector<float> m_c(static_cast<std::size_t>(p.chunks));
  for (std::int64_t c = 0; c < p.chunks; ++c)
    m_c[static_cast<std::size_t>(c)] = model_fast_chunk(x.data(), n, p, c, FastFloatAlg{}).s.m;
  const SoftmaxResult r = run_fast(x, 1, n);
  const float scale2 =
      compensated_exp_diff_with<PortableExp>(m_c[2], r.row_state[0].m) / r.row_state[0].d;
  EXPECT_TRUE(scale2 > 0.0f && scale2 < 0x1p-126f) << scale2;
  std::size_t subnormal = 0;
  for (std::int64_t j = 0; j < n; j += j >= kFastChunkElems && j < 3 * kFastChunkElems ? 1 : 89) {
    const auto k = static_cast<std::size_t>(j);
    ASSERT_EQ(float_bits(r.y[k]),
              float_bits(scaled_output(x[k], m_c[static_cast<std::size_t>(j / p.chunk_span())],
                                       r.row_state[0])))
        << j;
    subnormal += r.y[k] != 0.0f && std::fabs(r.y[k]) < 0x1p-126f;
  }
  EXPECT_GT(subnormal, 0u) << "chunks 1 and 2 meant to give subnormal outputs";
}

TEST(FastSchedule, MergeCarriesTheCombinesRoundingError) {
  // Two chunk states with d's whose merge rounds: s.d + lo must be the exact merge of the
  // (d + lo)'s when the rescale factor is 1 (equal maxima): fl-free up to O(u^2).
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> mag(1.0f, 1000.0f);
  for (int i = 0; i < 10000; ++i) {
    const FastMergeState a{State{2.5f, mag(rng)}, 0.0f, 0.0f}, b{State{2.5f, mag(rng)}, 0.0f, 0.0f};
    const FastMergeState r = fast_merge(a, b);
    EXPECT_EQ(static_cast<double>(r.s.d) + static_cast<double>(r.lo),
              static_cast<double>(a.s.d) + static_cast<double>(b.s.d));
    EXPECT_TRUE(bitwise_equal(r.s, FastCombine::combine(a.s, b.s)));
  }
}

TEST(FastSchedule, FourTermsAtOnceAreFastTermsBits) {
  // fast_terms4's one range test must give fast_term's bits for every mix of values in and out
  // of the exponent-field range: gaps near -86, underflow, infinities, NaN, masked -inf.
  std::mt19937 rng(17);
  const float specials[] = {0.0f,  -0.0f,  -85.99f, -86.0f,   -86.01f,   -103.9f, -104.0f, -200.0f,
                            88.0f, 88.01f, 89.0f,   INFINITY, -INFINITY, NAN,     1e-30f,  -1e-30f};
  std::uniform_int_distribution<int> pick(0, 15);
  std::normal_distribution<float> normal(0.0f, 40.0f);
  for (int i = 0; i < 200000; ++i) {
    float v[4], e[4];
    for (float& x : v) x = i % 3 == 0 ? specials[pick(rng)] : normal(rng);
    const float M = i % 5 == 0 ? specials[pick(rng)] : normal(rng);
    fast_terms4(v, M, e);
    for (int c = 0; c < 4; ++c) {
      const float want = fast_term(v[c], M);
      if (want != want) {
        ASSERT_TRUE(e[c] != e[c]) << v[c] << " " << M;
      } else {
        ASSERT_EQ(float_bits(e[c]), float_bits(want)) << std::hexfloat << v[c] << " " << M;
      }
    }
  }
}

TEST(FastSchedule, InitialValuesAreExactRightIdentities) {
  // The device skips the warp-tree rounds whose right-hand lanes hold only the initial value
  // (fast_schedule.h, "Skipped rounds"): each fold must give back its left operand bit for bit.
  const float inf = __builtin_huge_valf();
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 30.0f);
  std::vector<float> maxima = {-inf, -0.0f, 0.0f, 1e-45f, -1e-45f, 1e-38f, 88.5f, -103.0f, inf};
  for (int i = 0; i < 200; ++i) maxima.push_back(normal(rng));
  for (const float m : maxima) {
    ASSERT_EQ(float_bits(FastMaxAlg{}.combine(m, FastMaxAlg{}.initial())), float_bits(m)) << m;
  }
  std::vector<double> sums = {0.0, 4.9e-324, 1e-300, 1.0, 3.0e38, 1e308, static_cast<double>(inf)};
  std::uniform_real_distribution<double> uniform(0.0, 70000.0);
  for (int i = 0; i < 200; ++i) sums.push_back(uniform(rng));
  for (const double d : sums) {
    ASSERT_EQ(FastSumAlg{}.combine(d, FastSumAlg{}.initial()), d) << d;
    ASSERT_FALSE(std::signbit(FastSumAlg{}.combine(d, FastSumAlg{}.initial()))) << d;
  }
  // part states as steps 4 and 5 make them: single chunks (masked, NaN and overflowing ones
  // included) and merges of two, whose rest lo is not 0
  std::vector<FastMergeState> states = {FastMergeAlg{}.initial()};
  for (const float m : maxima)
    for (const double d : sums) states.push_back(fast_merge_state(m, d));
  const std::size_t singles = states.size();
  std::uniform_int_distribution<std::size_t> pick(0, singles - 1);
  for (int i = 0; i < 5000; ++i) states.push_back(fast_merge(states[pick(rng)], states[pick(rng)]));
  int with_rest = 0;
  for (const FastMergeState& a : states) {
    const FastMergeState r = fast_merge(a, FastMergeAlg{}.initial());
    ASSERT_TRUE(bitwise_equal(r.s, a.s)) << a.s.m << " " << a.s.d;
    ASSERT_EQ(float_bits(r.lo), float_bits(a.lo)) << a.s.m << " " << a.s.d << " " << a.lo;
    with_rest += a.lo != 0.0f;
  }
  EXPECT_GT(with_rest, 1000);  // the rests were exercised, not only lo = 0
}

TEST(FastSchedule, ChunkStateKeepsTheSumsRest) {
  // fast_merge_state: s.d = fl32(S); S - s.d is exact in binary64 and lo is it rounded once, so
  // s.d + lo is S within u^2 |S| (the accounting's chunk_state).
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mag(1.0, 2.0);
  std::uniform_int_distribution<int> scale(0, 20);
  for (int i = 0; i < 100000; ++i) {
    const double S = std::ldexp(mag(rng), scale(rng));
    const FastMergeState v = fast_merge_state(1.5f, S);
    ASSERT_EQ(float_bits(v.s.d), float_bits(static_cast<float>(S)));
    const double rest = S - static_cast<double>(v.s.d);
    ASSERT_LE(std::fabs(rest), 0x1p-24 * S);
    ASSERT_LE(std::fabs(static_cast<double>(v.lo) - rest), 0x1p-24 * std::fabs(rest))
        << std::hexfloat << S;
    ASSERT_LE(std::fabs(static_cast<double>(v.s.d) + v.lo - S), 0x1p-48 * S) << std::hexfloat << S;
  }
}

TEST(CompensatedExp, TheDifferenceSplitsExactly) {
  std::mt19937 rng(9);
  std::normal_distribution<float> normal(0.0f, 30.0f);
  for (int i = 0; i < 100000; ++i) {
    const float a = normal(rng), b = normal(rng) * (i % 3 == 0 ? 1e-6f : 1.0f);
    const float t = a - b;
    const float e = two_diff_error(a, b, t);
    // Exact in double: a - b has at most 24 + 2 * 127 bits of span only for wild exponents;
    // these magnitudes keep it within 53 bits.
    ASSERT_EQ(static_cast<double>(a) - static_cast<double>(b),
              static_cast<double>(t) + static_cast<double>(e))
        << std::hexfloat << a << " " << b;
  }
}

/// (1 + 2 E u)(1 + (u |g|)^2)(1 + u) - 1 for an exp of E ulps (compensated_exp.h), u = 2^-24, on
/// random gaps; the compensation must also beat the plain form kexp(fl(x - m)).
template <class Exp>
void expect_compensated_exp_within_its_bound() {
  const double u = 0x1p-24, E = Exp::max_ulp(false);
  std::mt19937 rng(10);
  std::uniform_real_distribution<float> gap(-85.0f, 0.0f);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  double worst_plain = 0, worst_comp = 0;
  for (int i = 0; i < 200000; ++i) {
    const float m = normal(rng);
    const float x = m + gap(rng);
    const double g = static_cast<double>(x) - static_cast<double>(m);
    const double exact = std::exp(g);
    const double bound = (1 + 2 * E * u) * (1 + (u * g) * (u * g)) * (1 + u) - 1;
    const double rel = std::fabs(compensated_exp_diff_with<Exp>(x, m) - exact) / exact;
    ASSERT_LE(rel, bound * (1 + 1e-9)) << std::hexfloat << x << " " << m;
    worst_comp = std::max(worst_comp, rel);
    worst_plain = std::max(worst_plain, std::fabs(Exp{}(x - m) - exact) / exact);
  }
  EXPECT_LT(worst_comp, worst_plain) << "the compensation must beat the plain form";
}

TEST(CompensatedExp, WithinItsDerivedRelativeErrorOnNormalResults) {
  expect_compensated_exp_within_its_bound<KernelExp>();
}

TEST(CompensatedExp, OverTheFastKernelsExpWithinItsDerivedRelativeError) {
  expect_compensated_exp_within_its_bound<FastKernelExp>();
}

TEST(FastModel, ConventionsOfTheHardenedKernel) {
  const float inf = INFINITY, nan = NAN;
  for (std::int64_t n : {5, 300, 5000, 40000}) {
    std::vector<float> masked(static_cast<std::size_t>(n), -inf);
    std::vector<float> with_nan = normal_row(n, 1), with_inf = normal_row(n, 2);
    with_nan[static_cast<std::size_t>(n / 2)] = nan;
    with_inf[static_cast<std::size_t>(n - 1)] = inf;
    const SoftmaxResult r = run_fast(masked, 1, n);
    EXPECT_TRUE(bitwise_equal(r.row_state[0], identity_state())) << n;
    for (float y : r.y) ASSERT_EQ(float_bits(y), float_bits(0.0f)) << n;
    for (const auto& row : {with_nan, with_inf})
      for (float y : run_fast(row, 1, n).y) ASSERT_TRUE(std::isnan(y)) << n;
  }
  // a part of masked values in a row of finite ones (its terms -inf - -inf are NaN): outputs 0
  for (std::int64_t n : {40000, 200000}) {
    std::vector<float> x = normal_row(n, 3);
    const std::int64_t span = fast_plan(n).chunk_span();
    std::fill(x.begin() + span, x.begin() + 2 * span, -inf);
    const SoftmaxResult r = run_fast(x, 1, n);
    for (std::int64_t j = span; j < 2 * span; ++j)
      ASSERT_EQ(float_bits(r.y[static_cast<std::size_t>(j)]), float_bits(0.0f)) << n << " " << j;
    EXPECT_FALSE(std::isnan(r.y[0])) << n;
  }
  const SoftmaxResult empty = run_fast({}, 3, 0);
  ASSERT_EQ(empty.row_state.size(), 3u);
  EXPECT_TRUE(bitwise_equal(empty.row_state[2], identity_state()));
}

TEST(FastModel, OutputsSumToOne) {
  for (std::int64_t n : {1, 7, 1000, 1024, 3000, 8192, 16385, 70001}) {
    const std::vector<float> x = normal_row(2 * n, static_cast<std::uint32_t>(n));
    const SoftmaxResult r = run_fast(x, 2, n);
    for (int i = 0; i < 2; ++i) {
      double sum = 0;
      for (std::int64_t j = 0; j < n; ++j) sum += r.y[static_cast<std::size_t>(i * n + j)];
      // every y_j within a few ulps: the sum within n * 2^-20 of 1 with room to spare
      EXPECT_NEAR(sum, 1.0, 1e-6 * (1 + static_cast<double>(n) / 1000)) << n;
    }
  }
}

TEST(FastModel, RefusesOtherCombines) {
  const SoftmaxBatch b{KernelKind::Fast, CombineKind::Seed, 256, 1, 4, {1, 2, 3, 4}};
  EXPECT_THROW(make_cpu_executor()->softmax(b), InvalidLaunch);
}

}  // namespace
}  // namespace osvs
