// The input domain, defined once for every producer of cases: the RapidCheck generators (gen/*.h),
// the fuzz decoder (fuzz/) and the audit's input families draw their special floats from
// kSpecialFloats, decode fp16-exact values with half_to_float, and respect the same size caps.
// No RapidCheck here: the fuzz harness and the audit include this header without it.
#pragma once

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "osvs/kernels/dtype.h"

namespace osvs::gen {

/// Elements in a row. The generators' size-scaled lengths and the fuzz decoder's u16 length are
/// clamped to it: long enough for every thread of a 1024-thread block to fold four elements.
inline constexpr int kMaxRowLength = 4096;
/// The generators' long rows (gen/rows.h) reach 2^kLongRowExponent elements: beyond 2^16, so that
/// at block 1024 a thread's stride loop runs 64 steps and more. They are drawn in a few cases of
/// a run only (each costs 2^17 oracle evaluations); the fuzz decoder stays at kMaxRowLength,
/// where an input of a few hundred bytes already runs at ~150 executions per second.
inline constexpr int kLongRowExponent = 17;
/// Rows of one case (a batch of equal-length rows).
inline constexpr int kMaxRows = 4;
/// Chunks of a harness schedule: more than a warp's 32, so partitions beyond the warp tree occur.
inline constexpr int kMaxChunks = 40;
/// M of the batch that surrounds the checked row (batch_invariance).
inline constexpr int kMaxBatchRows = 8;

/// The float with bits `u`.
constexpr float float_from_bits(std::uint32_t u) {
  return std::bit_cast<float>(u);
}

/// The special floats, 32 of them (the fuzz decoder's tag argument has five bits). Every value is
/// exact as written. The exp edges are the floats on either side of a threshold t of float exp,
/// computed as ln t in double and checked by properties/tests/domain_test.cpp:
///   overflow   expf(x) = inf from ln(FLT_MAX + ulp/2) = 88.722839082 on (0x1.62e430p+6),
///   FLT_MIN    ln 2^-126 = -87.336544751 rounds to -0x1.5d58a0p+6,
///   underflow  expf(x) rounds to 0 below ln 2^-150 = -103.972077084, which lies between
///              -0x1.9fe368p+6 (expf gives 2^-149) and -0x1.9fe36ap+6 (expf gives 0).
inline constexpr std::array<float, 32> kSpecialFloats = {
    0.0f,
    -0.0f,
    std::numeric_limits<float>::infinity(),
    -std::numeric_limits<float>::infinity(),
    float_from_bits(0x7fc00000u),  // quiet NaN
    float_from_bits(0xffc00000u),  // quiet NaN, sign set
    float_from_bits(0x7fa00001u),  // signalling NaN with a payload
    FLT_MIN,
    -FLT_MIN,
    0x1.fffffcp-127f,  // largest subnormal
    FLT_TRUE_MIN,
    -FLT_TRUE_MIN,
    FLT_MAX,
    -FLT_MAX,
    0x1.fffffcp+127f,  // FLT_MAX one ulp down
    1.0f,
    -1.0f,
    0.5f,
    2.0f,
    0x1.000002p+0f,   // 1 + 2^-23: one ulp above 1
    0x1.fffffep-1f,   // 1 - 2^-24: one ulp below 1
    65504.0f,         // fp16 max
    0x1p-24f,         // fp16 min subnormal; also u, the unit roundoff of float
    0x1.fep+127f,     // bf16 max
    0x1.62e430p-1f,   // ln 2 rounded to float
    0x1.62e42ep+6f,   // the largest x with finite expf(x)
    0x1.62e430p+6f,   // the smallest x with expf(x) = inf
    -0x1.5d58a0p+6f,  // ln FLT_MIN rounded: expf becomes subnormal below
    -0x1.9fe368p+6f,  // the smallest x with expf(x) > 0
    -0x1.9fe36ap+6f,  // the largest x with expf(x) = 0
    0x1p+24f,         // 2^24: from here on not every integer is a float
    -100.0f,          // exp(-100) is subnormal: a gap of 100 to the maximum underflows
};

/// The float with IEEE binary16 bits `h` (exact: every half is a float; inf and NaN included).
inline float half_to_float(std::uint16_t h) {
  return from_f16_bits(h);  // kernels/dtype.h: the one fp16 decoder
}

/// The float with bfloat16 bits `b` (the top half of a float's bits).
constexpr float bf16_to_float(std::uint16_t b) {
  return float_from_bits(std::uint32_t{b} << 16);
}

}  // namespace osvs::gen
