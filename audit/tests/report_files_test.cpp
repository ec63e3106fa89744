// The audit's output files: large detail gzipped (reproducibly), read back in either form; the
// timing mask hides wall-clock values and nothing else; the default folder is not the source tree.
#include "osvs/audit/report_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "osvs/audit/report_mask.h"
#include "osvs/audit/run_audit.h"
#include "temp_dir.h"

namespace osvs::audit {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string large_text() {
  std::string text;
  for (int i = 0; text.size() <= kCompressAbove; ++i)
    text += "{\"row\": " + std::to_string(i) + "}\n";
  return text;
}

TEST(DetailFiles, SmallTextIsWrittenAsItIs) {
  testing::TempDir dir;
  EXPECT_EQ(write_detail_file(dir.path(), "a.json", "{}\n"), dir.path() / "a.json");
  EXPECT_EQ(bytes_of(dir.path() / "a.json"), "{}\n");
  EXPECT_EQ(read_detail_file(dir.path(), "a.json"), "{}\n");
}

TEST(DetailFiles, LargeTextIsGzippedReproduciblyAndReadBack) {
  testing::TempDir dir;
  const std::string text = large_text();
  write_detail_file(dir.path(), "a.json", "{}\n");  // an older small form is replaced
  EXPECT_EQ(write_detail_file(dir.path(), "a.json", text), dir.path() / "a.json.gz");
  EXPECT_FALSE(fs::exists(dir.path() / "a.json"));
  const std::string packed = bytes_of(dir.path() / "a.json.gz");
  ASSERT_GE(packed.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
  EXPECT_LT(packed.size(), text.size() / 4);
  EXPECT_EQ(read_detail_file(dir.path(), "a.json"), text);
  write_detail_file(dir.path(), "a.json", text);
  EXPECT_EQ(bytes_of(dir.path() / "a.json.gz"), packed) << "the same text gave other bytes";
}

TEST(DetailFiles, AMissingFileIsNamed) {
  testing::TempDir dir;
  try {
    read_detail_file(dir.path(), "none.json");
    FAIL() << "a missing file was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("none.json"), std::string::npos) << e.what();
  }
}

TEST(TimingMask, HidesWallClockValuesOnly) {
  const std::string a =
      R"({"provenance": {"date": "2026-01-01", "commit": "abc"}, "timing": {"total_seconds": 1.5},)"
      R"( "configs": [{"seconds": 0.25, "max_ulp": 3}]})";
  const std::string b =
      R"({"provenance": {"date": "2027-02-02", "commit": "abc"}, "timing": {"total_seconds": 9.0},)"
      R"( "configs": [{"seconds": 7.5, "max_ulp": 3}]})";
  EXPECT_FALSE(first_difference(mask_timing_json(a), mask_timing_json(b)));
  std::string c = b;
  c.replace(c.find("\"max_ulp\": 3"), 12, "\"max_ulp\": 4");
  const auto diff = first_difference(mask_timing_json(a), mask_timing_json(c));
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("max_ulp"), std::string::npos) << *diff;
}

TEST(TimingMask, MarkdownKeepsEverythingButDateTimingAndPerformance) {
  const std::string a =
      "# t\n- date: 2026\n- commit: abc\n## Performance\nran 3 ms\n## Timing\n1.5 s\n## Plots\nx\n";
  const std::string b =
      "# t\n- date: 2027\n- commit: abc\n## Performance\nran 4 ms\n## Timing\n9.0 s\n## Plots\nx\n";
  EXPECT_FALSE(first_difference(mask_timing_markdown(a), mask_timing_markdown(b)));
  std::string c = b;
  c.replace(c.find("commit: abc"), 11, "commit: abd");
  EXPECT_TRUE(first_difference(mask_timing_markdown(a), mask_timing_markdown(c)));
  std::string d = b;
  d.replace(d.rfind("x\n"), 2, "y\n");  // after the masked sections, compared again
  EXPECT_TRUE(first_difference(mask_timing_markdown(a), mask_timing_markdown(d)));
}

TEST(DefaultOutput, IsRelativeToTheCurrentDirectoryNotTheSourceTree) {
  const fs::path p = default_out_dir("cpu", "2026-11-29T11:45:51Z");
  EXPECT_TRUE(p.is_relative()) << p;
  EXPECT_EQ(p, fs::path("osvs-reports") / "audit" / "cpu" / "2026-11-29");
}

}  // namespace
}  // namespace osvs::audit
