// CombineKind: the combine operators under test, named at run time, and the dispatch from a name
// to the operator type that the templated kernels and the CPU model are instantiated with.
#pragma once

#include <optional>
#include <string_view>

#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/combine_mutants.h"
#include "osvs/kernels/combine_seed.h"
#include "osvs/kernels/enum_names.h"

namespace osvs {

enum class CombineKind {
  Seed,
  Hardened,
  // mutants (combine_mutants.h): never part of the suite's default sweep
  MutantOverwriteM,
  MutantNoRescale,
  MutantNaiveIdentity,
  MutantUnorderedTies,
  MutantFastExp,
};

/// The operators under test.
inline constexpr CombineKind kAllCombines[] = {CombineKind::Seed, CombineKind::Hardened};

/// The deliberately broken operators of the mutation run.
inline constexpr CombineKind kMutantCombines[] = {
    CombineKind::MutantOverwriteM, CombineKind::MutantNoRescale, CombineKind::MutantNaiveIdentity,
    CombineKind::MutantUnorderedTies, CombineKind::MutantFastExp};

/// The operator a mutant was derived from (itself for a real operator).
inline constexpr CombineKind original_of(CombineKind k) {
  switch (k) {
    case CombineKind::MutantOverwriteM:
    case CombineKind::MutantNoRescale:
    case CombineKind::MutantNaiveIdentity:
      return CombineKind::Seed;
    case CombineKind::MutantUnorderedTies:
    case CombineKind::MutantFastExp:
      return CombineKind::Hardened;
    default:
      return k;
  }
}

/// Calls f(Op{}) with the operator type of k.
template <class F>
decltype(auto) visit_combine(CombineKind k, F&& f) {
  switch (k) {
    case CombineKind::Seed:
      return f(SeedCombine{});
    case CombineKind::Hardened:
      return f(HardenedCombine{});
    case CombineKind::MutantOverwriteM:
      return f(MutantOverwriteM{});
    case CombineKind::MutantNoRescale:
      return f(MutantNoRescale{});
    case CombineKind::MutantNaiveIdentity:
      return f(MutantNaiveIdentity{});
    case CombineKind::MutantUnorderedTies:
      return f(MutantUnorderedTies{});
    case CombineKind::MutantFastExp:
      return f(MutantFastExp{});
  }
  return f(HardenedCombine{});  // unreachable for valid enumerators
}

/// The run-time names: each operator's kName.
inline constexpr EnumName<CombineKind> kCombineNames[] = {
    {CombineKind::Seed, SeedCombine::kName},
    {CombineKind::Hardened, HardenedCombine::kName},
    {CombineKind::MutantOverwriteM, MutantOverwriteM::kName},
    {CombineKind::MutantNoRescale, MutantNoRescale::kName},
    {CombineKind::MutantNaiveIdentity, MutantNaiveIdentity::kName},
    {CombineKind::MutantUnorderedTies, MutantUnorderedTies::kName},
    {CombineKind::MutantFastExp, MutantFastExp::kName},
};

inline const char* to_string(CombineKind k) {
  return name_in(kCombineNames, k);
}

inline std::optional<CombineKind> parse_combine(std::string_view s) {
  return value_in(kCombineNames, s);
}

/// The algebra an operator declares: which laws it claims to satisfy bitwise. A mutant declares
/// the algebra of the operator it was derived from, so that it is held to the same laws.
struct CombineAlgebra {
  bool bitwise_commutative;
  bool exact_identity;
  bool rescales_both_sides;
};

inline CombineAlgebra algebra_of(CombineKind k) {
  const auto declared = [](auto op) {
    using Op = decltype(op);
    return CombineAlgebra{Op::kBitwiseCommutative, Op::kExactIdentity, Op::kRescalesBothSides};
  };
  return original_of(k) == CombineKind::Seed ? declared(SeedCombine{})
                                             : declared(HardenedCombine{});
}

}  // namespace osvs
