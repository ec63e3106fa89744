// A sweep split over several runs (CI jobs, machines): `osvs audit --shard i/n` audits the
// configurations of plan index k with k % n == i, and `osvs audit --merge DIR...` joins the
// shards' results into the report of the whole plan.
//
// What a merged report holds: the sweep of every configuration, each number exactly what the
// unsharded run computes (a configuration's rows depend on the plan and the seed only); the
// targeted search of every shard (each climbs from its own configurations' worst rows, with
// ceil(rounds / n) rounds, seed mixed with the shard index), the best `keep` per kernel kept, so
// the search part depends on n; every registered attention kernel's section (kernel k of the
// registry on shard k % n: its cases are seeded by its name, so each kernel's section, and the
// determinism certificate made of them, is the unsharded run's); the attention merge / decode
// section and the performance audit of shard 0, the only one that runs them. Two merges of the
// same shards are the same bytes except timing fields.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osvs::audit {

struct AuditReport;

struct Shard {
  int index = 0;
  int count = 1;

  bool whole() const { return count == 1; }
  /// Whether the configuration at plan index k is this shard's.
  bool owns(std::size_t k) const {
    return static_cast<int>(k % static_cast<std::size_t>(count)) == index;
  }
};

/// The items of `all` at the indices the shard owns, in order.
template <class T>
std::vector<T> shard_part(const std::vector<T>& all, const Shard& shard) {
  std::vector<T> part;
  for (std::size_t k = 0; k < all.size(); ++k)
    if (shard.owns(k)) part.push_back(all[k]);
  return part;
}

/// Parses "i/n" (0 <= i < n, n >= 1); throws std::invalid_argument naming the problem.
Shard parse_shard(const std::string& text);

/// The shard GoogleTest's and ctest's sharding environment asks for (GTEST_TOTAL_SHARDS,
/// GTEST_SHARD_INDEX), or nullopt when neither is set; throws std::invalid_argument when they are
/// malformed or only one is set.
std::optional<Shard> shard_from_environment();

/// The file a sharded run writes next to its reports: every result of the shard, losslessly
/// (gzipped, shard.json.gz, when large: report_files.h).
inline constexpr const char* kShardFileName = "shard.json";

/// Writes the shard file of r into dir.
void write_shard_file(const AuditReport& r, const std::filesystem::path& dir);

/// Reads the shard file of a report folder. The plan is rebuilt from the recorded options. Throws
/// std::runtime_error naming the file and what is wrong with it.
AuditReport read_shard_file(const std::filesystem::path& path);

/// Joins the shards of one sharded audit into the report of the whole plan. Throws
/// std::invalid_argument when they are not the n shards 0 .. n-1 of one run (same options, commit,
/// executor and device), each once.
AuditReport merge_shards(std::vector<AuditReport> shards);

}  // namespace osvs::audit
