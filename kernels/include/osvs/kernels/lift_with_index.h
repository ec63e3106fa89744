// Whether an algebra's lift takes the element's index in the row as well as its value (argmax, a
// state reduction: api/state_reduction.h). Written in C++17, since nvcc compiles the device code
// that reads it as C++17.
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
