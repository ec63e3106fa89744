// The `mutation` field of a Case in the JSON format: written only when set (old files and their
// content ids are unchanged), read back, a missing field is "none", an unknown name is named.
#include <gtest/gtest.h>

#include "osvs/replay/case_io.h"

namespace osvs {
namespace {

TEST(CaseMutationIo, RoundTripsEveryMutation) {
  for (KernelMutation m : kAllKernelMutations) {
    Case c;
    c.mutation = m;
    c.rows = {{1.0f, 2.0f}};
    EXPECT_EQ(parse_case(serialize_case(c)).mutation, m) << to_string(m);
  }
}

TEST(CaseMutationIo, NoneIsNotWrittenAndMissingMeansNone) {
  Case c;
  c.rows = {{1.0f}};
  const std::string text = serialize_case(c);
  EXPECT_EQ(text.find("\"mutation\""), std::string::npos) << text;
  EXPECT_EQ(parse_case(text).mutation, KernelMutation::None);
  Case m = c;
  m.mutation = KernelMutation::ShuffleUp;
  // The id of an unmutated case does not see the field; a mutated case is a different case.
  EXPECT_EQ(canonical_case_text("p", c).find("\"mutation\""), std::string::npos);
  EXPECT_NE(canonical_case_text("p", c), canonical_case_text("p", m));
}

TEST(CaseMutationIo, UnknownMutationIsNamed) {
  Case c;
  c.mutation = KernelMutation::ShuffleUp;
  std::string text = serialize_case(c);
  text.replace(text.find("shuffle_up"), 10, "shuffle_sideways");
  try {
    parse_case(text, "f.json");
    FAIL() << "an unknown mutation was accepted";
  } catch (const RegressionFormatError& e) {
    EXPECT_EQ(e.field(), "mutation");
    EXPECT_NE(std::string(e.what()).find("shuffle_sideways"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace osvs
