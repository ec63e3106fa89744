// Whether an algebra's lift takes the element's index in the row as well as its value (argmax, a
// state reduction: api/state_reduction.h): the one test the harness's CPU model and device kernel
// and a state reduction's algebra all read.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace osvs {

template <class Alg, class = void>
inline constexpr bool kLiftTakesIndex = false;
template <class Alg>
inline constexpr bool kLiftTakesIndex<
    Alg, std::void_t<decltype(std::declval<const Alg&>().lift(0.0f, std::int64_t{}))>> = true;

}  // namespace osvs
