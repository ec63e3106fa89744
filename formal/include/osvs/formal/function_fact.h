// One fact assumed of an uninterpreted exp or log: the function is correctly rounded on every
// input in [first, last] (exp_facts.h and log_facts.h list them and say how each is checked).
#pragma once

#include <cstdint>
#include <string>

#include "osvs/formal/format.h"

namespace osvs::formal {

struct FunctionFact {
  std::string function;  ///< "exp", "exp2", "log" or "log2"
  std::uint32_t first;   ///< input bits (of the proof's format), inclusive
  std::uint32_t last;
  std::string statement;  ///< e.g. "exp(+0) = 1"
  std::string needed_by;  ///< which step of which proof uses it
};

/// The inputs of a fact that says "every NaN of this sign gives a NaN" (binary32).
inline constexpr std::uint32_t kPositiveNanFirst = 0x7f800001u, kPositiveNanLast = 0x7fffffffu;
inline constexpr std::uint32_t kNegativeNanFirst = 0xff800001u, kNegativeNanLast = 0xffffffffu;

/// Whether f states "f(NaN) is NaN" for every NaN of one sign (stated as one clause, not input by
/// input).
inline bool is_nan_range(const FunctionFact& f) {
  return (f.first == kPositiveNanFirst && f.last == kPositiveNanLast) ||
         (f.first == kNegativeNanFirst && f.last == kNegativeNanLast);
}
/// The same for a fact of `format`'s inputs.
inline bool is_nan_range(const FunctionFact& f, const Format& format) {
  const std::uint32_t first = format.positive_nan_first(), last = format.positive_nan_last();
  return (f.first == first && f.last == last) ||
         (f.first == (first | format.sign_bit()) && f.last == (last | format.sign_bit()));
}

}  // namespace osvs::formal
