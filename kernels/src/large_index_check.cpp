#include "osvs/kernels/large_index_check.h"

#include <cstdint>
#include <exception>
#include <vector>

#include "osvs/kernels/hex.h"

namespace osvs {

LargeIndexOutcome check_large_index(Executor& executor, KernelKind kernel) {
  constexpr std::int64_t kRows = 65537, kCols = 32768;  // rows * cols = 2^31 + 2^15
  SoftmaxBatch big{kernel, CombineKind::Hardened, 256, kRows, kCols, {}};
  big.x.resize(static_cast<std::size_t>(kRows * kCols));
  // Row r holds a ramp whose slope depends on r, so rows read at a wrong offset give other bits.
  for (std::int64_t r = 0; r < kRows; ++r) {
    const float slope = 1.0f / static_cast<float>(1 + r % 97);
    float* row = big.x.data() + r * kCols;
    for (std::int64_t j = 0; j < kCols; ++j) row[j] = slope * static_cast<float>(j % 1024) - 3.0f;
  }
  SoftmaxResult all;
  try {
    all = executor.softmax(big);
  } catch (const std::exception& e) {
    return {false, std::string("the batch failed: ") + e.what()};
  }
  for (std::int64_t r : {std::int64_t{0}, kRows - 2, kRows - 1}) {
    SoftmaxBatch one{kernel, CombineKind::Hardened, 256, 1, kCols, {}};
    one.x.assign(big.x.begin() + r * kCols, big.x.begin() + (r + 1) * kCols);
    const SoftmaxResult alone = executor.softmax(one);
    for (std::int64_t j = 0; j < kCols; ++j)
      if (float_bits(alone.y[j]) != float_bits(all.y[r * kCols + j]))
        return {false, "row " + std::to_string(r) + " element " + std::to_string(j) +
                           " differs from the same row run alone (" +
                           readable(all.y[r * kCols + j]) + " vs " + readable(alone.y[j]) + ")"};
  }
  return {true, ""};
}

}  // namespace osvs
