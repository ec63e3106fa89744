// Float generators, Hypothesis-grade: special values, boundary constants, fp16/bf16-exact widths,
// plain distributions; every value shrinks toward simple floats (0, 1, small integers, fewer
// significant bits, finite instead of non-finite).
#pragma once

#include <rapidcheck.h>

#include <vector>

namespace osvs::gen {

/// Simpler candidates for x, each strictly simpler by float_complexity (so shrinking terminates).
rc::Seq<float> shrink_float(float x);

/// An order on floats for shrinking: non-finite > more significant bits > larger |exponent| > sign.
int float_complexity(float x);

/// Wraps g so that its values shrink with shrink_float instead of g's own shrinks.
rc::Gen<float> simple_shrinking(rc::Gen<float> g);

/// The pool of nasty constants: gen/domain.h's kSpecialFloats (±0, ±inf, NaNs, FLT_MIN,
/// subnormals, FLT_MAX and neighbours, 1 and neighbours, fp16 and bf16 limits, exp edges), the
/// same values the fuzz decoder and the audit draw from.
const std::vector<float>& nasty_constants();

/// Any float: nasty constants, fp16-exact, bf16-exact, ln 2 multiples, integers, subnormals,
/// normal(σ ∈ {1, 10, 100}), raw bit patterns (NaN payloads included).
rc::Gen<float> any_float();

/// Like any_float() but never NaN or ±inf.
rc::Gen<float> finite_float();

/// A sample of N(0, sigma²) rounded to float.
rc::Gen<float> normal_float(float sigma);

/// A float exactly representable in IEEE binary16 (normal or subnormal, finite).
rc::Gen<float> fp16_exact_float();

/// A finite float exactly representable in bfloat16.
rc::Gen<float> bf16_exact_float();

/// A finite float on the grid k / 256 with |k| < 2^15, so that sums of two stay exact.
rc::Gen<float> grid_float();

/// The classes a float belongs to, for RC_TAG / RC_CLASSIFY ("nan", "+inf", "subnormal", ...).
const char* float_class(float x);

}  // namespace osvs::gen

#include "osvs/properties/gen/floats.hpp"
