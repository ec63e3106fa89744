// Launch-side validation shared by both executors: a bad batch is a clear error before anything
// runs, never a launch failure or a silently wrong answer.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/kernels/cases.h"
#include "osvs/kernels/dtype.h"

namespace osvs {

/// Thrown for a batch that a kernel cannot run as given; the message says what and why.
class InvalidLaunch : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The seed kernel computes `row * N` in int: it is only correct while rows * cols < 2^31.
inline constexpr std::int64_t kSeedIndexLimit = std::int64_t{1} << 31;

/// The largest N the seed kernel's column loops take at block size `block`. They run
/// `for (int col = tid; col < N; col += BLOCK)` in int, as written, and so form col + BLOCK for
/// col up to N - 1; validation keeps N + BLOCK itself inside int (N <= INT32_MAX - BLOCK), one
/// column of margin over the first N that overflows (INT32_MAX - BLOCK + 2). The hardened and
/// 3-pass kernels loop in int64 and take every N up to INT32_MAX.
inline constexpr std::int64_t seed_column_limit(int block) {
  return std::int64_t{std::numeric_limits<std::int32_t>::max()} - block;
}

/// Checks a launch configuration and shape (not the values): block size, sizes, index limits.
void validate_shape(KernelKind kernel, CombineKind combine, int block, std::int64_t rows,
                    std::int64_t cols);

/// Checks a combine_pairs_in of a narrow type: `type` is BF16 or F16, the operator runs on narrow
/// states (its registry entry has combine_narrow), a and b have one size, and every field of
/// every state is a value of `type` (is_value_of). `executor` names the caller in the message.
void validate_narrow_pairs(const char* executor, DType type, CombineKind op,
                           const std::vector<State>& a, const std::vector<State>& b);

/// validate_shape plus: the batch holds exactly rows * cols values.
void validate(const SoftmaxBatch& batch);
void validate(const HarnessBatch& batch);

}  // namespace osvs
