// The decoder's promise: every byte string becomes a valid case for its property (so the fuzzer
// never wastes an execution on a refused input), and the values that break reductions are one
// tag byte away.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <set>

#include "osvs/fuzz/case_decoder.h"
#include "osvs/fuzz/float_decoder.h"
#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/validate.h"

namespace osvs::fuzz {
namespace {

/// Every slot is merged away exactly once, except the root, which is never a merge source.
void expect_full_tree(const HarnessCase& hc) {
  const auto slots = static_cast<std::int32_t>(hc.slot_chunk.size());
  std::vector<bool> gone(static_cast<std::size_t>(slots));
  for (const Merge& m : hc.merges) {
    RC_ASSERT(!gone[static_cast<std::size_t>(m.src)]);
    RC_ASSERT(!gone[static_cast<std::size_t>(m.dst)]);
    gone[static_cast<std::size_t>(m.src)] = true;
  }
  RC_ASSERT(hc.merges.size() == static_cast<std::size_t>(slots - 1));
  RC_ASSERT(!gone[static_cast<std::size_t>(hc.root)]);
}

/// The values form a permutation of 0 .. n-1.
template <class Int>
void expect_permutation(const std::vector<Int>& p) {
  std::vector<bool> seen(p.size());
  for (Int v : p) {
    RC_ASSERT(v >= 0);
    RC_ASSERT(static_cast<std::size_t>(v) < p.size());
    RC_ASSERT(!seen[static_cast<std::size_t>(v)]);
    seen[static_cast<std::size_t>(v)] = true;
  }
}

/// A state of the well-formed domain: the NaN state, or non-NaN m with d >= +0.
void expect_well_formed(State s) {
  if (std::isnan(s.m) || std::isnan(s.d)) {
    RC_ASSERT(std::isnan(s.m));
    RC_ASSERT(std::isnan(s.d));
    return;
  }
  RC_ASSERT(!std::signbit(s.d));
}

RC_GTEST_PROP(CaseDecoder, EveryByteStringDecodesToAValidCase, ()) {
  // Up to 4000 bytes: rows of several hundred decoded values; longer rows read zeros past the end.
  const auto length = *rc::gen::inRange<std::size_t>(0, 4000);
  const auto bytes =
      *rc::gen::container<std::vector<std::uint8_t>>(length, rc::gen::arbitrary<std::uint8_t>());
  const FuzzInput f = decode_fuzz_input(bytes);
  const Case& c = f.input;
  RC_ASSERT(f.property != nullptr);
  RC_ASSERT(is_supported_block(c.block));
  RC_ASSERT(!c.rows.empty());
  RC_ASSERT(c.rows.size() <= static_cast<std::size_t>(gen::kMaxRows));
  const std::size_t n = c.rows[0].size();
  RC_ASSERT(n <= static_cast<std::size_t>(gen::kMaxRowLength));
  for (const auto& row : c.rows) RC_ASSERT(row.size() == n);

  RC_ASSERT(c.states.size() >= 2u);
  RC_ASSERT(c.states.size() % 2 == 0);
  for (State s : c.states) expect_well_formed(s);

  RC_ASSERT(c.batch_rows >= 1);
  RC_ASSERT(c.batch_position >= 0);
  RC_ASSERT(c.batch_position < c.batch_rows);
  RC_ASSERT(c.permutation.size() == n);
  expect_permutation(c.permutation);

  RC_ASSERT(c.schedules.size() == 2u);
  HarnessBatch hb{c.combine, c.schedules, false};
  for (HarnessCase& hc : hb.cases) {
    hc.row = c.rows[0];
    expect_permutation(hc.slot_chunk);
    expect_full_tree(hc);
  }
  validate(hb);  // throws InvalidLaunch for a schedule the executor would refuse
  if (f.property->name == "warp_reduce")
    RC_ASSERT(c.schedules[0].chunk_offsets.size() == static_cast<std::size_t>(kWarpSize + 1));
}

TEST(CaseDecoder, EmptyInputIsACase) {
  const FuzzInput f = decode_fuzz_input({});
  EXPECT_EQ(f.property, &all_properties()[0]);
  ASSERT_EQ(f.input.rows.size(), 1u);
  EXPECT_TRUE(f.input.rows[0].empty());
}

TEST(CaseDecoder, FirstByteReachesEveryProperty) {
  std::set<std::string> reached;
  for (int b = 0; b < 256; ++b) {
    const std::uint8_t byte = static_cast<std::uint8_t>(b);
    reached.insert(decode_fuzz_input({&byte, 1}).property->name);
  }
  EXPECT_EQ(reached.size(), all_properties().size());
}

/// The float decoded from one tag byte followed by `rest` (zeros when empty).
float decode_one(std::uint8_t tag, float running_max = -INFINITY) {
  const std::uint8_t bytes[] = {tag};
  ByteReader in(bytes);
  return decode_float(in, running_max);
}

TEST(FloatDecoder, SpecialValuesAreOneByteAway) {
  std::set<std::uint32_t> one_byte;
  for (int t = 0; t < 256; ++t)
    one_byte.insert(std::bit_cast<std::uint32_t>(decode_one(static_cast<std::uint8_t>(t))));
  const float inf = std::numeric_limits<float>::infinity();
  for (float special : {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), FLT_MIN,
                        FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MAX, -FLT_MAX, 1.0f})
    EXPECT_TRUE(one_byte.count(std::bit_cast<std::uint32_t>(special)))
        << "not reachable with one byte: " << special;
}

TEST(FloatDecoder, TieTagsStepFromTheRunningMaximum) {
  const float m = 3.0f;
  // Tie tags are (k << 3) | 4 for k = 0 .. 8, meaning k - 4 ulps from the running maximum.
  EXPECT_EQ(decode_one((4 << 3) | 4, m), m);
  EXPECT_EQ(decode_one((5 << 3) | 4, m), std::nextafter(m, INFINITY));
  EXPECT_EQ(decode_one((3 << 3) | 4, m), std::nextafter(m, 0.0f));
}

TEST(FloatDecoder, SmallIntegersSpanMinus16To15) {
  EXPECT_EQ(decode_one((0 << 3) | 5), -16.0f);
  EXPECT_EQ(decode_one((16 << 3) | 5), 0.0f);
  EXPECT_EQ(decode_one((31 << 3) | 5), 15.0f);
}

TEST(FloatDecoder, SpecialTagsReadTheSharedPool) {
  for (int tag : {static_cast<int>(FloatTag::Special), static_cast<int>(FloatTag::SpecialToo)})
    for (std::size_t argument = 0; argument < gen::kSpecialFloats.size(); ++argument) {
      const auto byte = static_cast<std::uint8_t>((argument << kTagBits) | tag);
      EXPECT_EQ(std::bit_cast<std::uint32_t>(decode_one(byte)),
                std::bit_cast<std::uint32_t>(gen::kSpecialFloats[argument]))
          << "tag byte " << int{byte};
    }
}

TEST(FloatDecoder, HalfTagsDecodeBinary16) {
  const std::uint8_t bytes[] = {static_cast<std::uint8_t>(FloatTag::Half), 0x00, 0x3c};  // 1.0
  ByteReader in(bytes);
  EXPECT_EQ(decode_float(in, -INFINITY), gen::half_to_float(0x3c00));
  EXPECT_EQ(gen::half_to_float(0x3c00), 1.0f);
}

}  // namespace
}  // namespace osvs::fuzz
