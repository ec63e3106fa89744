// The states a law is proven over, as constraints on the bits of a symbolic state.
//
//   every          all 2^64 bit patterns of (m, d): NaNs with any payload, +-inf, +-0, subnormals
//   well_formed    exhaustive/'s and the properties' domain (grid_space.h well_formed): the
//                  canonical NaN state, or m not NaN, d >= 0 or +inf (-0 included: -0 >= 0), and
//                  m = -inf only with d == 0
//   d_sign_clear   and d's sign bit clear: d = -0 excluded (no reduction makes it: lift gives 1,
//                  a combine adds non-negative terms to a non-negative d)
//   no_nan         and no NaN anywhere (the canonical NaN state excluded)
//   finite         and m, d finite
//   partial        the attention merge's (lse, o) (carried in (m, d), attention_merge.h): a
//                  partial the merge can hold (docs/semantics.md §8): the canonical NaN row (lse
//                  and o the canonical NaN), or lse neither NaN nor +inf (those merge to the NaN
//                  row), and lse = -inf only with o = +0 (the documented empty result)
#pragma once

#include <string>
#include <vector>

#include "osvs/formal/sym_state.h"

namespace osvs::formal {

struct Domain {
  bool well_formed = false;
  bool d_sign_clear = false;
  bool no_nan = false;
  bool finite = false;
  /// An attention partial (lse, o) as the merge can hold it (above); independent of the others.
  bool partial = false;
  /// When set, m is one of these (a counterexample search narrowed to a few maxima, so that the
  /// exp meets few arguments; never a proof's domain).
  std::vector<float> m_values;
  /// When set, the first and second operand's m are these constants (a search only: the source
  /// then runs down one path and the exp meets known arguments, pinned up front).
  std::vector<float> fixed_m;
  /// When set, d is one of these (likewise only for a search).
  std::vector<float> d_values;

  /// "every", or the restrictions joined by " + ".
  std::string name() const;
  /// The constraint on one state.
  z3::expr contains(const SymState& s) const;
};

inline const Domain kEveryState{};
inline const Domain kWellFormed{true};
inline const Domain kWellFormedSignClear{true, true};
inline const Domain kWellFormedNoNan{true, false, true};
inline const Domain kWellFormedNoNanSignClear{true, true, true};
inline const Domain kFinite{true, true, true, true};
inline const Domain kAttentionPartial = [] {
  Domain d;
  d.partial = true;
  return d;
}();

}  // namespace osvs::formal
