// What the opt-in large laws share (row kernels' large_batch, large_batch_law.h; merge kernels'
// large_batch, merge_large_law.h): the variable that opts in, the element count at which a
// signed 32-bit offset wraps, the rows judged around each wrap, how a judged row is named, and the
// likely cause a failed launch is given.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace osvs::api {

/// The environment variable that opts in.
inline constexpr const char* kLargeLawsVariable = "OSVS_LARGE_LAWS";

/// "" when OSVS_LARGE_LAWS=1, else "opt-in (<cost>): set OSVS_LARGE_LAWS=1".
std::string large_law_excluded(const std::string& cost);

/// 2^31, the element count at which a signed 32-bit offset wraps (an unsigned one wraps at twice
/// it). For the laws' own tests, the power of two >= 1024 that OSVS_LARGE_LAWS_ELEMENTS names:
/// every large law scaled down alike, the same rows judged at a fraction of the memory.
std::int64_t int32_wrap_elements();

/// The rows judged in a batch of `rows` rows of `row_length` elements: the first, for each
/// element index e of `wraps` the row holding element e and the rows before and after it, the
/// last; ascending, each once, only rows of the batch.
std::vector<std::int64_t> rows_around(const std::vector<std::int64_t>& wraps,
                                      std::int64_t row_length, std::int64_t rows);

/// "row i of <rows> (<length_name> = <row_length>, elements <first>..<last>)".
std::string judged_row_name(std::int64_t i, std::int64_t rows, std::int64_t row_length,
                            const std::string& length_name);

/// A large launch's failure (the runner's KernelFailure message) with its likely cause added,
/// an offset computed in 32 bits, which wraps at int32_wrap_elements() (int) or twice that
/// (unsigned): for a CUDA error (an illegal address, most often) and a memory breach (outputs
/// left unwritten, writes outside the output or into an input); `elements` is how many elements
/// the launch's largest array holds. What the kernel threw comes back as it is.
std::string with_likely_cause(const std::string& failure, std::int64_t elements);

}  // namespace osvs::api
