// The configuration seed is a fixed function of its name: FNV-1a 64 (the same with every standard
// library, which std::hash is not), spread by SplitMix64's finaliser.
#include "osvs/kernels/stable_hash.h"

#include <gtest/gtest.h>

#include "osvs/audit/config_audit.h"

namespace osvs::audit {
namespace {

/// FNV-1a written out from its definition, one byte at a time, independent of fnv1a64's loop.
std::uint64_t fnv1a_by_definition(const unsigned char* bytes, std::size_t n) {
  std::uint64_t h = kFnv1aOffsetBasis;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ bytes[i]) * kFnv1aPrime;
  return h;
}

TEST(StableHash, Fnv1aOfTheEmptyTextIsTheOffsetBasis) {
  EXPECT_EQ(fnv1a64(""), kFnv1aOffsetBasis);
}

TEST(StableHash, Fnv1aFollowsItsDefinitionAndTheSpecificationsVectors) {
  const unsigned char a[] = {'a'};
  EXPECT_EQ(fnv1a64("a"), (kFnv1aOffsetBasis ^ 0x61u) * kFnv1aPrime);
  EXPECT_EQ(fnv1a64("a"), fnv1a_by_definition(a, 1));
  // Test vectors of the FNV specification (draft-eastlake-fnv, FNV-1a 64).
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
  // Bytes above 127 are hashed as unsigned values.
  const unsigned char high[] = {0xff, 0x80};
  EXPECT_EQ(fnv1a64("\xff\x80"), fnv1a_by_definition(high, 2));
}

TEST(StableHash, ConfigSeedHashesTheConfigurationsName) {
  const Config c{{KernelKind::TwoPass, CombineKind::Seed}, 256, 1000, find_family("normal_1"), 1};
  const std::string key = "two_pass/seed/256/1000/normal_1";
  const auto* bytes = reinterpret_cast<const unsigned char*>(key.data());
  const std::uint64_t run_seed = 20240607;
  EXPECT_EQ(config_seed(c, run_seed),
            splitmix64_mix(run_seed ^ fnv1a_by_definition(bytes, key.size())));
  Config other = c;
  other.block = 512;
  EXPECT_NE(config_seed(other, run_seed), config_seed(c, run_seed));
}

}  // namespace
}  // namespace osvs::audit
