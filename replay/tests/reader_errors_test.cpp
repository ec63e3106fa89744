// Malformed, truncated and wrong-schema files: each error names the file and the JSON path of the
// offending field, and says what was expected.
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "osvs/replay/case_io.h"
#include "temp_dir.h"

namespace osvs {
namespace {

/// A valid record with two states, as JSON that a test then damages.
nlohmann::ordered_json valid_document() {
  RegressionRecord r;
  r.property = "commutativity";
  r.input.states = {State{1.0f, 2.0f}, State{3.0f, 4.0f}};
  return nlohmann::ordered_json::parse(serialize_regression(r));
}

/// The message of the RegressionFormatError that parsing `text` as `file` throws ("" if none).
std::string error_of(const std::string& text, const std::string& file = "bad.json") {
  try {
    parse_regression(text, file);
  } catch (const RegressionFormatError& e) {
    return e.what();
  }
  return "";
}

TEST(ReaderErrors, ValidDocumentParses) {
  EXPECT_EQ(error_of(valid_document().dump()), "");
}

TEST(ReaderErrors, NumberWhereAHexFloatBelongs) {
  auto doc = valid_document();
  doc["input"]["states"][1]["d"] = 3;
  EXPECT_EQ(error_of(doc.dump(), "reports/regressions/commutativity/ab12.json"),
            "reports/regressions/commutativity/ab12.json: input.states[1].d: expected a hex float "
            "string, got 3");
}

TEST(ReaderErrors, InexactHexFloat) {
  auto doc = valid_document();
  doc["input"]["states"][0]["m"] = "0x1.000001p+0";
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.states[0].m: expected a hex float string exactly representable as a "
            "float, got \"0x1.000001p+0\"");
}

TEST(ReaderErrors, MissingField) {
  auto doc = valid_document();
  doc["input"].erase("block");
  EXPECT_EQ(error_of(doc.dump()), "bad.json: input.block: missing field");
}

TEST(ReaderErrors, UnknownFieldIsRefused) {
  auto doc = valid_document();
  doc["input"]["blok"] = 128;
  EXPECT_EQ(error_of(doc.dump()), "bad.json: input: unknown field \"blok\"");
}

TEST(ReaderErrors, UnknownEnumerators) {
  auto doc = valid_document();
  doc["input"]["combine"] = "fancy";
  EXPECT_EQ(error_of(doc.dump()), "bad.json: input.combine: unknown combine \"fancy\"");
  doc = valid_document();
  doc["expectation"] = "maybe";
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: expectation: expected \"holds\" or \"violates\", got \"maybe\"");
}

// Case::state_format: a floating type's name, and every state field a value of that type.
TEST(ReaderErrors, MalformedStateFormat) {
  auto doc = valid_document();
  doc["input"]["state_format"] = "fp8";
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.state_format: expected \"f32\", \"bf16\" or \"f16\", got \"fp8\"");
  doc["input"]["state_format"] = "i32";  // a DType, but an index type
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.state_format: expected \"f32\", \"bf16\" or \"f16\", got \"i32\"");
  doc["input"]["state_format"] = 16;
  EXPECT_EQ(error_of(doc.dump()), "bad.json: input.state_format: expected a string, got 16");
}

TEST(ReaderErrors, StateThatIsNoValueOfItsFormat) {
  auto doc = valid_document();  // states 1, 2, 3, 4: values of every format
  doc["input"]["state_format"] = "bf16";
  EXPECT_EQ(error_of(doc.dump()), "");
  doc["input"]["states"][1]["d"] = "0x1.004p+0";  // 1 + 2^-10: an fp16 value, no bf16 one
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.states[1].d: 0x1.004p+0 is no bf16 value, as state_format \"bf16\" "
            "requires");
  doc["input"]["state_format"] = "f16";
  EXPECT_EQ(error_of(doc.dump()), "");
  doc["input"]["states"][0]["m"] = "0x1p+16";  // 65536: past fp16's largest finite value
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.states[0].m: 0x1p+16 is no f16 value, as state_format \"f16\" "
            "requires");
  doc["input"]["states"][0]["m"] = "nan(0x1)";  // a payload below fp16's 10 significand bits
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.states[0].m: nan(0x1) is no f16 value, as state_format \"f16\" "
            "requires");
}

TEST(ReaderErrors, WrongSchemaVersion) {
  auto doc = valid_document();
  doc["schema_version"] = 2;
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: schema_version: unsupported schema version 2 (this osvs reads version 1)");
  doc.erase("schema_version");
  EXPECT_EQ(error_of(doc.dump()), "bad.json: schema_version: missing field");
}

TEST(ReaderErrors, NotAnObject) {
  EXPECT_EQ(error_of("[1, 2]"), "bad.json: expected an object, got [1,2]");
}

TEST(ReaderErrors, IntegerOutOfRange) {
  auto doc = valid_document();
  doc["input"]["block"] = 4294967296LL;  // 2^32 does not fit the int block size
  EXPECT_EQ(error_of(doc.dump()),
            "bad.json: input.block: integer out of the 32-bit range, got 4294967296");
}

TEST(ReaderErrors, TruncatedFileNamesTheFile) {
  const std::string text = valid_document().dump(2);
  const std::string message = error_of(text.substr(0, text.size() / 2), "cut.json");
  EXPECT_EQ(message.rfind("cut.json: not valid JSON (truncated or corrupt): ", 0), 0u) << message;
}

TEST(ReaderErrors, EmptyAndMissingFiles) {
  testing::TempDir dir;
  const auto empty = dir.path() / "empty.json";
  std::ofstream(empty).close();
  try {
    read_regression(empty);
    FAIL() << "an empty file parsed";
  } catch (const RegressionFormatError& e) {
    EXPECT_EQ(e.file(), empty.string());
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
  try {
    read_regression(dir.path() / "absent.json");
    FAIL() << "a missing file parsed";
  } catch (const RegressionFormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir.path() / "absent.json").string() + ": cannot open the file for reading");
  }
}

}  // namespace
}  // namespace osvs
