// CombineKind: the combine operators under test, named at run time, and the dispatch from a name
// to the operator type that the templated kernels and the CPU model are instantiated with.
#pragma once

#include <optional>
#include <string_view>

#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/combine_seed.h"

namespace osvs {

enum class CombineKind { Seed, Hardened };

inline constexpr CombineKind kAllCombines[] = {CombineKind::Seed, CombineKind::Hardened};

/// Calls f(Op{}) with the operator type of k.
template <class F>
decltype(auto) visit_combine(CombineKind k, F&& f) {
  switch (k) {
    case CombineKind::Seed:
      return f(SeedCombine{});
    case CombineKind::Hardened:
      return f(HardenedCombine{});
  }
  return f(HardenedCombine{});  // unreachable for valid enumerators
}

inline const char* to_string(CombineKind k) {
  return visit_combine(k, [](auto op) { return decltype(op)::kName; });
}

inline std::optional<CombineKind> parse_combine(std::string_view s) {
  for (CombineKind k : kAllCombines)
    if (s == to_string(k)) return k;
  return std::nullopt;
}

/// The algebra an operator declares: which laws it claims to satisfy bitwise.
struct CombineAlgebra {
  bool bitwise_commutative;
  bool exact_identity;
  bool rescales_both_sides;
};

inline CombineAlgebra algebra_of(CombineKind k) {
  return visit_combine(k, [](auto op) {
    using Op = decltype(op);
    return CombineAlgebra{Op::kBitwiseCommutative, Op::kExactIdentity, Op::kRescalesBothSides};
  });
}

}  // namespace osvs
