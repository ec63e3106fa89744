// Float decoding for fuzzer bytes: one tag byte chooses how a value is made, so that the values
// that break reductions (NaN, +-inf, -0, subnormals, FLT_MAX, exp's overflow and underflow
// thresholds, ties with the running maximum) are one or two mutations away, not one in 2^32. The
// special values and the fp16 decoding are the generators' (osvs/properties/gen/domain.h).
#pragma once

#include <cstdint>

#include "osvs/fuzz/byte_reader.h"
#include "osvs/properties/gen/domain.h"

namespace osvs::fuzz {

/// How a tag byte's low three bits choose the value; its high five bits are the argument.
enum class FloatTag : std::uint8_t {
  Raw = 0,         ///< the next 4 bytes are the bits
  RawToo = 1,      ///< the same as Raw: raw bits get a quarter of the tags
  Special = 2,     ///< gen::kSpecialFloats[argument]
  SpecialToo = 3,  ///< the same as Special: special values get a quarter of the tags
  Tie = 4,         ///< the running maximum moved by (argument % 9) - 4 ulps: ties, near-ties
  SmallInt = 5,    ///< argument - 16, an integer in [-16, 15]
  Half = 6,        ///< the next 2 bytes as an IEEE binary16 value (fp16-exact)
  BFloat16 = 7,    ///< the next 2 bytes as the top half of a float (bf16-exact)
};

/// Bits of a tag byte that choose the FloatTag; the others are the argument.
inline constexpr int kTagBits = 3;
static_assert(gen::kSpecialFloats.size() == std::size_t{1} << (8 - kTagBits),
              "one special value per argument of a Special tag");

/// Decodes one float. `running_max` is the largest non-NaN value decoded so far in the same row
/// (-inf when none); a Tie tag without a finite running maximum takes a special value instead.
float decode_float(ByteReader& in, float running_max);

}  // namespace osvs::fuzz
