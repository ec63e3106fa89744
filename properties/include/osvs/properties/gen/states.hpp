// Implementation of gen/states.h.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string_view>

#include "osvs/kernels/hd.h"
#include "osvs/properties/gen/floats.h"

namespace osvs::gen {

namespace detail {

/// d of a well-formed state: +0, small integers, positive finite floats, subnormals, +inf.
inline rc::Gen<float> state_d() {
  return simple_shrinking(rc::gen::weightedOneOf<float>({
      {2, rc::gen::element(0.0f, 1.0f, 2.0f, 32.0f, std::numeric_limits<float>::infinity())},
      {4, rc::gen::map(finite_float(), [](float x) { return std::fabs(x) + 0.0f; })},  // +0 not -0
      {4, rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 8u << 23),
                       [](std::uint32_t u) { return float_from_bits(0x3f800000u + u); })},
  }));
}

/// m of a well-formed state: any float but NaN.
inline rc::Gen<float> state_m() {
  return rc::gen::suchThat(any_float(), [](float x) { return !std::isnan(x); });
}

}  // namespace detail

inline rc::Gen<State> realistic_state() {
  return rc::gen::map(
      rc::gen::pair(normal_float(10.0f), rc::gen::inRange<std::uint32_t>(0, 8u << 23)),
      [](std::pair<float, std::uint32_t> p) {
        return State{p.first, float_from_bits(0x3f800000u + p.second)};  // d in [1, 256)
      });
}

inline rc::Gen<State> finite_max_state() {
  return rc::gen::weightedOneOf<State>({
      {1, rc::gen::just(seed_initial_state())},
      {2, rc::gen::map(finite_float(),
                       [](float x) {
                         return State{x, 1.0f};
                       })},
      {3, rc::gen::map(rc::gen::pair(finite_float(), detail::state_d()),
                       [](std::pair<float, float> p) {
                         return State{p.first, p.second};
                       })},
      {2, realistic_state()},
  });
}

inline rc::Gen<State> well_formed_state() {
  const float inf = std::numeric_limits<float>::infinity();
  return rc::gen::weightedOneOf<State>({
      {2, rc::gen::just(identity_state())},
      {1, rc::gen::just(State{canonical_nan(), canonical_nan()})},
      {1, rc::gen::element(State{inf, 1.0f}, State{inf, 0.0f})},
      {2, rc::gen::map(rc::gen::pair(detail::state_m(), detail::state_d()),
                       [inf](std::pair<float, float> p) {
                         // m = -inf stands for a multiset of only -inf: that is the identity
                         return p.first == -inf ? identity_state() : State{p.first, p.second};
                       })},
      {4, finite_max_state()},
  });
}

inline rc::Gen<std::vector<State>> states(rc::Gen<State> g) {
  return rc::gen::withSize([g](int size) {
    return rc::gen::mapcat(rc::gen::inRange(1, 2 + std::min(size, 62)), [g](int n) {
      return rc::gen::container<std::vector<State>>(static_cast<std::size_t>(n), g);
    });
  });
}

namespace detail {

/// Two states whose maxima tie in value: the same m, or +0 against -0, so that a combine must
/// resolve the tie by value and not by operand order.
inline rc::Gen<std::vector<State>> tied_pair() {
  const rc::Gen<float> m =
      rc::gen::weightedOneOf<float>({{1, rc::gen::element(0.0f, -0.0f)}, {2, finite_float()}});
  return rc::gen::map(rc::gen::tuple(m, rc::gen::arbitrary<bool>(), state_d(), state_d()),
                      [](const std::tuple<float, bool, float, float>& t) {
                        const auto [ma, flip_zero_sign, da, db] = t;
                        const float mb = flip_zero_sign && ma == 0.0f ? -ma : ma;
                        return std::vector<State>{State{ma, da}, State{mb, db}};
                      });
}

}  // namespace detail

inline rc::Gen<std::vector<State>> state_pairs() {
  const rc::Gen<State> one =
      rc::gen::weightedOneOf<State>({{3, realistic_state()}, {1, well_formed_state()}});
  const rc::Gen<std::vector<State>> pair = rc::gen::weightedOneOf<std::vector<State>>(
      {{4, rc::gen::container<std::vector<State>>(2, one)}, {1, detail::tied_pair()}});
  // A variable-length container, so that shrinking removes any pair (not only trailing ones):
  // at most 16 pairs, each generated at the caller's size.
  return rc::gen::withSize([pair](int size) {
    const auto pairs = rc::gen::resize(
        std::min(size, 16), rc::gen::nonEmpty(rc::gen::container<std::vector<std::vector<State>>>(
                                rc::gen::resize(size, pair))));
    return rc::gen::map(pairs, [](const std::vector<std::vector<State>>& ps) {
      std::vector<State> flat;
      for (const auto& p : ps) flat.insert(flat.end(), p.begin(), p.end());
      return flat;
    });
  });
}

inline const char* states_class(const std::vector<State>& states) {
  static const char* const order[] = {"nan",    "identity", "seed initial", "m=+inf",
                                      "d=+inf", "d=0",      "d subnormal"};
  for (const char* cls : order)
    for (State s : states)
      if (std::string_view(state_class(s)) == cls) return cls;
  return states.empty() ? "none" : "finite";
}

inline const char* state_class(State s) {
  if (std::isnan(s.m) || std::isnan(s.d)) return "nan";
  if (bitwise_equal(s, identity_state())) return "identity";
  if (bitwise_equal(s, seed_initial_state())) return "seed initial";
  if (std::isinf(s.m)) return s.m > 0 ? "m=+inf" : "m=-inf";
  if (std::isinf(s.d)) return "d=+inf";
  if (s.d == 0) return "d=0";
  if (s.d < FLT_MIN) return "d subnormal";
  return "finite";
}

}  // namespace osvs::gen
