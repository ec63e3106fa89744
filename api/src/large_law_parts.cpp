#include "large_law_parts.h"

#include <cstdlib>
#include <set>
#include <stdexcept>

namespace osvs::api {

std::string large_law_excluded(const std::string& cost) {
  const char* v = std::getenv(kLargeLawsVariable);
  if (v && std::string(v) == "1") return "";
  return "opt-in (" + cost + "): set " + kLargeLawsVariable + "=1";
}

std::int64_t int32_wrap_elements() {
  const char* v = std::getenv("OSVS_LARGE_LAWS_ELEMENTS");
  if (!v || !*v) return std::int64_t{1} << 31;
  const std::int64_t e = std::strtoll(v, nullptr, 10);
  if (e < 1024 || (e & (e - 1)) != 0)
    throw std::invalid_argument("OSVS_LARGE_LAWS_ELEMENTS must be a power of two >= 1024");
  return e;
}

std::vector<std::int64_t> rows_around(const std::vector<std::int64_t>& wraps,
                                      std::int64_t row_length, std::int64_t rows) {
  std::set<std::int64_t> judged = {0, rows - 1};
  for (const std::int64_t e : wraps)
    for (const std::int64_t i : {e / row_length - 1, e / row_length, e / row_length + 1})
      judged.insert(i);
  std::vector<std::int64_t> out;
  for (const std::int64_t i : judged)
    if (i >= 0 && i < rows) out.push_back(i);
  return out;
}

std::string judged_row_name(std::int64_t i, std::int64_t rows, std::int64_t row_length,
                            const std::string& length_name) {
  return "row " + std::to_string(i) + " of " + std::to_string(rows) + " (" + length_name + " = " +
         std::to_string(row_length) + ", elements " + std::to_string(i * row_length) + ".." +
         std::to_string(i * row_length + row_length - 1) + ")";
}

std::string with_likely_cause(const std::string& failure, std::int64_t elements) {
  // What the kernel threw (the runner's "threw: ...", its allocations failing among them) is its
  // own message; a CUDA error or a memory breach (rows unwritten, writes outside the output or
  // into an input) is what a wrapped offset does.
  if (failure.find(" threw") != std::string::npos) return failure;
  const std::int64_t wrap = int32_wrap_elements();
  const std::string at = wrap == std::int64_t{1} << 31
                             ? ""
                             : " (scaled down to " + std::to_string(wrap) + " / " +
                                   std::to_string(2 * wrap) + " by OSVS_LARGE_LAWS_ELEMENTS)";
  return failure + "; likely cause: a 32-bit offset wraps at 2^31 / 2^32 elements" + at +
         ": this launch holds " + std::to_string(elements) +
         " elements in one array, and an element offset computed in int (negative past 2^31) or "
         "unsigned (back to 0 past 2^32) addresses other elements than the row's own (outside "
         "the buffers, or rows already written, leaving the last ones unwritten); offsets must "
         "be computed in 64 bits (int64_t, size_t)";
}

}  // namespace osvs::api
