// The whole adapter: a (max, argmax) state reduction of one's own (max_argmax.h) under the
// reduction laws, with the exact laws it claims; its results are exact (no tolerance declared).
#include "max_argmax.h"

OSVS_REGISTER_REDUCTION(max_argmax) {
  return osvs::state_reduction<MaxArgmax>("example.max_argmax")
      .bitwise_commutative()
      .exact_identity()
      .description("(max, argmax), NaN largest, ties to the lowest index");
}
