// Writer and reader round-trip every field of a regression record bit for bit, including NaN
// (sign and payload, quiet or signalling), -0, subnormals, +-inf and FLT_MAX.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "osvs/replay/case_io.h"
#include "record_generators.h"
#include "same_bits.h"

namespace osvs {
namespace {

using testing::float_from_bits;
using testing::same_bits;

RC_GTEST_PROP(RoundTrip, EveryRecordFieldSurvivesWriteThenRead, ()) {
  const RegressionRecord r = *testing::any_record();
  const std::string text = serialize_regression(r);
  const RegressionRecord back = parse_regression(text, "generated.json");
  RC_ASSERT(same_bits(r, back));
  RC_ASSERT(serialize_regression(back) == text);  // the text is a fixed point: diffs stay quiet
}

RC_GTEST_PROP(RoundTrip, EveryCaseFieldSurvivesWriteThenRead, ()) {
  const Case c = *testing::any_case();
  RC_ASSERT(same_bits(c, parse_case(serialize_case(c), "generated.json")));
}

TEST(RoundTrip, SpecialValuesInEveryFloatField) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min();
  const float payload_nan = float_from_bits(0xffc00001u);     // negative, quiet, payload 1
  const float signalling_nan = float_from_bits(0x7f800123u);  // as the fuzz pool makes them
  RegressionRecord r;
  r.property = "identity";
  r.input.rows = {{nan, -0.0f, tiny, INFINITY, -INFINITY, FLT_MAX, payload_nan, signalling_nan}};
  r.input.states = {State{-INFINITY, 0.0f}, State{nan, -0.0f}, State{signalling_nan, payload_nan}};
  r.input.schedules = {HarnessCase{{-FLT_MAX, tiny}, {0, 1, 2}, {1, 0}, {{0, 1}}, 0}};
  r.input.shift = -0.0f;
  r.verdict =
      Verdict::fail("(-inf,0) (+) (-inf,0) is NaN",
                    {Evidence{"d", std::numeric_limits<double>::quiet_NaN(), 0.0, INFINITY, 0.0}});
  const RegressionRecord back = parse_regression(serialize_regression(r), "special.json");
  EXPECT_TRUE(same_bits(r, back));
  EXPECT_TRUE(std::signbit(back.input.rows[0][1]));  // -0 stays negative
  EXPECT_EQ(back.input.rows[0][2], tiny);            // the smallest subnormal is not flushed
  EXPECT_TRUE(std::isnan(back.input.states[1].m));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back.input.rows[0][6]), 0xffc00001u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back.input.rows[0][7]), 0x7f800123u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back.input.states[2].m), 0x7f800123u);
}

TEST(RoundTrip, OldFilesWithPlainNaNStillRead) {
  // Files written before payloads were kept spell every NaN "nan": the canonical quiet NaN.
  RegressionRecord r;
  r.property = "identity";
  r.input.states = {State{std::numeric_limits<float>::quiet_NaN(), 1.0f}};
  const std::string text = serialize_regression(r);
  ASSERT_NE(text.find("\"nan\""), std::string::npos) << text;
  const RegressionRecord back = parse_regression(text, "old.json");
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back.input.states[0].m), 0x7fc00000u);
  EXPECT_EQ(regression_id(back), regression_id(r));  // the id of an old file does not change
}

// The states' format is written only when not f32, so float32 files keep their text and ids; a
// narrow one is part of the id (the same values in another format are another case).
TEST(RoundTrip, StateFormatIsWrittenForNarrowStatesAlone) {
  RegressionRecord r;
  r.property = "commutativity";
  r.input.states = {State{0.0f, 1.0f}, State{-0.0f, 0x1p-8f}};
  const std::string f32_text = serialize_regression(r);
  EXPECT_EQ(f32_text.find("state_format"), std::string::npos) << f32_text;
  const std::string f32_id = regression_id(r);
  for (DType t : {DType::BF16, DType::F16}) {
    r.input.state_format = t;
    const std::string text = serialize_regression(r);
    EXPECT_NE(text.find(std::string("\"state_format\": \"") + to_string(t) + "\""),
              std::string::npos)
        << text;
    const RegressionRecord back = parse_regression(text, "narrow.json");
    EXPECT_EQ(back.input.state_format, t);
    EXPECT_TRUE(same_bits(r, back));
    EXPECT_NE(regression_id(r), f32_id);
  }
  r.input.state_format = DType::F32;
  EXPECT_EQ(regression_id(r), f32_id);
}

TEST(RoundTrip, CanonicalTextIgnoresEverythingButPropertyAndInput) {
  RegressionRecord a;
  a.property = "commutativity";
  a.input.states = {State{1.0f, 2.0f}, State{3.0f, 4.0f}};
  RegressionRecord b = a;
  b.note = "different note";
  b.expectation = Expectation::Violates;
  b.verdict = Verdict::fail("differs");
  EXPECT_EQ(regression_id(a), regression_id(b));
  b.input.states[1].m = std::nextafter(3.0f, 4.0f);  // one ulp changes the id
  EXPECT_NE(regression_id(a), regression_id(b));
  b = a;
  a.input.shift = 0.0f;
  b.input.shift = -0.0f;  // so does the sign of zero
  EXPECT_NE(regression_id(a), regression_id(b));
  b = a;
  b.property = "identity";
  EXPECT_NE(regression_id(a), regression_id(b));
  EXPECT_EQ(regression_id(a).size(), 16u);  // 64 bits in hex
}

}  // namespace
}  // namespace osvs
