// State generators for the combine laws: well-formed states (m any non-NaN float, d >= +0 or
// +inf), the identity and the seed's initial state, the canonical NaN state, lifted elements, and
// realistic states of nearby maxima whose swap exposes FMA-contraction asymmetry.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "osvs/kernels/state.h"

namespace osvs::gen {

/// A well-formed state: any of the kinds listed above (m = -inf only in the identity (-inf, 0)).
rc::Gen<State> well_formed_state();

/// A well-formed state whose m is finite (the domain of the seed's (-FLT_MAX, 0) identity).
rc::Gen<State> finite_max_state();

/// A state a real reduction produces: m ~ N(0, 10²), d uniform in [1, 256) with all mantissa bits.
rc::Gen<State> realistic_state();

/// 1..63 states from `g`, size-scaled.
rc::Gen<std::vector<State>> states(rc::Gen<State> g);

/// 1..16 pairs (shrinking removes any of them) flattened as a0, b0, a1, b1, ...: realistic pairs
/// mostly, well-formed pairs, and pairs whose maxima tie (equal m, or +0 against -0).
rc::Gen<std::vector<State>> state_pairs();

/// The class of a state for RC_TAG: "identity", "seed initial", "nan", "m=±inf", "d=0", ...
const char* state_class(State s);

/// The most special class among `states` (nan, identity, seed initial, m=+inf, ...), one tag.
const char* states_class(const std::vector<State>& states);

}  // namespace osvs::gen

#include "osvs/properties/gen/states.hpp"
