// The column limit of the int-indexed seed kernel: its loops `for (int col = tid; col < N;
// col += BLOCK)` form col + BLOCK in int, so validation refuses N > INT32_MAX - BLOCK for it while
// the int64-indexed kernels take every N up to INT32_MAX. validate_shape checks the shape alone:
// no 8 GiB row is allocated to see the boundary.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "osvs/kernels/block_schedule.h"
#include "osvs/kernels/validate.h"

namespace osvs {
namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();

/// The message of the InvalidLaunch that validate_shape throws, or "" when it accepts.
std::string refusal(KernelKind kernel, CombineKind combine, int block, std::int64_t cols) {
  try {
    validate_shape(kernel, combine, block, 1, cols);
    return "";
  } catch (const InvalidLaunch& e) {
    return e.what();
  }
}

TEST(ColumnLimit, SeedKernelStopsWhereItsIntLoopWouldOverflow) {
  for (int block : kSupportedBlocks) {
    const std::int64_t last_allowed = kIntMax - block;
    EXPECT_EQ(seed_column_limit(block), last_allowed);
    EXPECT_EQ(refusal(KernelKind::TwoPass, CombineKind::Seed, block, last_allowed), "")
        << "B = " << block;
    const std::string why =
        refusal(KernelKind::TwoPass, CombineKind::Seed, block, last_allowed + 1);
    EXPECT_NE(why.find("loops over columns in int"), std::string::npos) << "B = " << block << why;
    EXPECT_NE(why.find(std::to_string(last_allowed)), std::string::npos) << why;
  }
}

TEST(ColumnLimit, Int64KernelsTakeEveryColumnCountUpToIntMax) {
  for (int block : kSupportedBlocks) {
    const std::int64_t past_seed_limit = kIntMax - block + 1;
    for (std::int64_t cols : {past_seed_limit, kIntMax}) {
      EXPECT_EQ(refusal(KernelKind::TwoPass, CombineKind::Hardened, block, cols), "")
          << "B = " << block << ", N = " << cols;
      for (CombineKind combine : kAllCombines)
        EXPECT_EQ(refusal(KernelKind::ThreePass, combine, block, cols), "")
            << "B = " << block << ", N = " << cols;
    }
  }
}

}  // namespace
}  // namespace osvs
