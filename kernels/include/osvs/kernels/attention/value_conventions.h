// What a merge kernel declares about the values the arithmetic leaves open (docs/semantics.md
// §8): the bits of a NaN, the sign of a zero, the o of an empty result. The exact laws compare
// under these (and print the bits either way), so that a convention a kernel documents is not
// reported as its finding, and cannot hide the findings behind it.
#pragma once

namespace osvs {

struct ValueConventions {
  /// Any NaN stands for the canonical NaN 0x7fc00000 (e.g. 0x7fffffff from a fast-math kernel).
  bool any_nan_bits = false;
  /// -0 and +0 are equal (where the laws otherwise want a zero's sign too).
  bool either_zero_sign = false;
  /// The o of an empty row (lse -inf) is unspecified: neither compared nor required to be +0.
  bool empty_o_unspecified = false;
};

}  // namespace osvs
