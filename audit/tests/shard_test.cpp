// Shards of the audit: parsing, the sharding environment, the shard file read back bit for bit,
// and the merge's refusals. (audit.shard_merge runs real shard audits and merges them.)
#include "osvs/audit/shard.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include "osvs/audit/families.h"
#include "osvs/audit/report.h"
#include "temp_dir.h"

namespace osvs::audit {
namespace {

TEST(Shard, ParsesIOfN) {
  const Shard s = parse_shard("2/5");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 5);
  EXPECT_TRUE(parse_shard("0/1").whole());
  EXPECT_TRUE(s.owns(7));
  EXPECT_FALSE(s.owns(8));
  for (const char* bad : {"", "1", "5/5", "-1/2", "1/0", "a/2", "1/b", "1/2/3", " 1/2", "1/2 "})
    EXPECT_THROW(parse_shard(bad), std::invalid_argument) << "'" << bad << "'";
}

TEST(Shard, ComesFromTheGoogleTestEnvironment) {
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_INDEX");
  EXPECT_FALSE(shard_from_environment());
  setenv("GTEST_TOTAL_SHARDS", "4", 1);
  EXPECT_THROW(shard_from_environment(), std::invalid_argument);  // only one of the two
  setenv("GTEST_SHARD_INDEX", "3", 1);
  const auto s = shard_from_environment();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 3);
  EXPECT_EQ(s->count, 4);
  setenv("GTEST_SHARD_INDEX", "4", 1);
  EXPECT_THROW(shard_from_environment(), std::invalid_argument);
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_INDEX");
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

/// A shard report of the quick plan with values a text format could lose: NaN, infinities, -0,
/// subnormal floats, 17-digit doubles.
AuditReport awkward_shard(int index, int count) {
  AuditReport r;
  r.options.quick = true;
  r.options.seed = 99;
  r.options.shard = {index, count};
  r.shard = r.options.shard;
  r.plan = make_plan(r.options, false);
  r.provenance.osvs_commit = "abc";
  r.provenance.executor = "cpu";
  r.provenance.device = "cpu model";
  r.exp_ulp = 1;
  for (std::size_t k = 0; k < r.plan.configs.size(); ++k) {
    if (!r.shard.owns(k)) continue;
    if (k % 5 == 1) {
      r.not_run.push_back(r.plan.configs[k]);
      continue;
    }
    ConfigResult c;
    c.config = r.plan.configs[k];
    c.elements = static_cast<std::int64_t>(k) * 3;
    c.ulp.add(0.1 + static_cast<double>(k));
    c.ulp.add(std::numeric_limits<double>::infinity());
    c.tightness = 1.0 / 3.0 + static_cast<double>(k);
    c.y_bound_max = std::numeric_limits<double>::quiet_NaN();
    c.d_rel_max = -0.0;
    c.worst_ratio = {4, 0x1p-149f, -0.0f, 1e-300, 0.5, std::numeric_limits<double>::infinity()};
    c.worst_ratio_row = 2;
    c.violations = {"x"};
    c.violation_rows = {1};
    c.worst_row = {1.0f, -std::numeric_limits<float>::infinity(), 0x1.fffffep127f};
    c.laws.push_back({"sum_to_one", false, true, true, false, false, "why"});
    r.configs.push_back(c);
  }
  r.search.worst.push_back({r.plan.kernels.front(), 32, {2.0f}, "sweep", 1, {}});
  r.search.worst.back().audit.ratio = 0.75 + index;
  r.search.rounds = 10;
  r.attention.not_run = index == 0 ? "" : "shard";
  r.attention.laws.push_back({"merge_accuracy", 3, 0, 0.5, {0.25, 0.5}, 0, ""});
  r.perf.skipped_because = "--no-perf";
  return r;
}

TEST(ShardFile, ReadsBackEveryValueBitForBit) {
  testing::TempDir dir;
  const AuditReport r = awkward_shard(1, 3);
  write_shard_file(r, dir.path());
  const AuditReport back = read_shard_file(dir.path());
  EXPECT_EQ(back.shard.index, 1);
  EXPECT_EQ(back.shard.count, 3);
  EXPECT_EQ(back.options.seed, 99u);
  ASSERT_EQ(back.configs.size(), r.configs.size());
  ASSERT_EQ(back.not_run.size(), r.not_run.size());
  for (std::size_t i = 0; i < r.configs.size(); ++i) {
    const ConfigResult &a = r.configs[i], &b = back.configs[i];
    EXPECT_EQ(describe(a.config), describe(b.config));
    EXPECT_EQ(a.elements, b.elements);
    EXPECT_EQ(a.ulp.counts(), b.ulp.counts());
    EXPECT_TRUE(same_bits(a.ulp.sum(), b.ulp.sum()) && same_bits(a.ulp.max(), b.ulp.max()));
    EXPECT_TRUE(same_bits(a.tightness, b.tightness));
    EXPECT_TRUE(std::isnan(b.y_bound_max));
    EXPECT_TRUE(same_bits(a.d_rel_max, b.d_rel_max)) << "-0 must stay -0";
    EXPECT_EQ(std::memcmp(&a.worst_ratio.x, &b.worst_ratio.x, sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(&a.worst_ratio.y, &b.worst_ratio.y, sizeof(float)), 0);
    EXPECT_TRUE(same_bits(a.worst_ratio.bound, b.worst_ratio.bound));
    EXPECT_EQ(a.worst_row, b.worst_row);
    EXPECT_EQ(a.violation_rows, b.violation_rows);
    ASSERT_EQ(b.laws.size(), 1u);
    EXPECT_EQ(b.laws[0].explanation, "why");
  }
  ASSERT_EQ(back.search.worst.size(), 1u);
  EXPECT_EQ(back.search.worst[0].audit.ratio, 1.75);
  ASSERT_EQ(back.attention.laws.size(), 1u);
  EXPECT_EQ(back.attention.laws[0].tightness, (std::vector<double>{0.25, 0.5}));
}

TEST(ShardFile, AMalformedFileIsRefusedWithItsName) {
  testing::TempDir dir;
  EXPECT_THROW(read_shard_file(dir.path()), std::runtime_error);  // no file
  const auto write = [&](const std::string& text) {
    std::ofstream(dir.path() / kShardFileName) << text;
  };
  const auto message = [&] {
    try {
      read_shard_file(dir.path());
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  write("not json");
  EXPECT_NE(message().find(kShardFileName), std::string::npos) << message();
  write(R"({"format": "something else"})");
  EXPECT_NE(message().find("not an osvs audit shard"), std::string::npos) << message();
  // A configuration index beyond the plan, and one whose name is not the plan's.
  write_shard_file(awkward_shard(0, 2), dir.path());
  std::ifstream in(dir.path() / kShardFileName);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto at = text.find("\"plan_index\": 0");
  ASSERT_NE(at, std::string::npos);
  write(text.substr(0, at) + "\"plan_index\": 99999" + text.substr(at + 15));
  EXPECT_NE(message().find("outside the plan"), std::string::npos) << message();
  write(text.substr(0, at) + "\"plan_index\": 2" + text.substr(at + 15));
  EXPECT_NE(message().find("in the plan of its options"), std::string::npos) << message();
}

TEST(MergeShards, JoinsTheShardsInPlanOrder) {
  std::vector<AuditReport> shards = {awkward_shard(2, 3), awkward_shard(0, 3), awkward_shard(1, 3)};
  const AuditReport m = merge_shards(shards);
  EXPECT_EQ(m.merged_shards, 3);
  EXPECT_EQ(m.configs.size() + m.not_run.size(), m.plan.configs.size());
  // plan order: configuration k came from shard k % 3 (its elements field is 3k)
  std::size_t last = 0;
  for (const ConfigResult& c : m.configs) {
    const auto k = static_cast<std::size_t>(c.elements / 3);
    EXPECT_EQ(describe(c.config), describe(m.plan.configs[k]));
    EXPECT_TRUE(k == 0 || k > last);
    last = k;
  }
  EXPECT_EQ(m.attention.not_run, "") << "shard 0's attention section";
  ASSERT_FALSE(m.search.worst.empty());
  EXPECT_EQ(m.search.worst.front().audit.ratio, 2.75) << "the best search case of the shards";
  EXPECT_EQ(m.search.rounds, 30);
}

TEST(MergeShards, RefusesWhatIsNotOneAudit) {
  const auto refused = [](std::vector<AuditReport> shards) {
    try {
      merge_shards(std::move(shards));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("merged");
  };
  EXPECT_NE(refused({}).find("no shard"), std::string::npos);
  EXPECT_NE(refused({awkward_shard(0, 3), awkward_shard(2, 3)}).find("1/3 is missing"),
            std::string::npos);
  EXPECT_NE(refused({awkward_shard(0, 2), awkward_shard(0, 2), awkward_shard(1, 2)})
                .find("0/2 is given twice"),
            std::string::npos);
  AuditReport other_seed = awkward_shard(1, 2);
  other_seed.options.seed = 100;
  EXPECT_NE(refused({awkward_shard(0, 2), other_seed}).find("options differ"), std::string::npos);
  AuditReport other_commit = awkward_shard(1, 2);
  other_commit.provenance.osvs_commit = "def";
  EXPECT_NE(refused({awkward_shard(0, 2), other_commit}).find("commit"), std::string::npos);
  EXPECT_NE(refused({awkward_shard(0, 2), awkward_shard(1, 3)}).find("not of one audit"),
            std::string::npos);
  AuditReport lost = awkward_shard(1, 2);
  lost.configs.erase(lost.configs.begin());
  EXPECT_NE(refused({awkward_shard(0, 2), lost}).find("has no result for"), std::string::npos);
}

}  // namespace
}  // namespace osvs::audit
