// CombineKind: a handle on a registered combine operator (combine_operator.h).
//
// Every combine operator under test is an entry of one registry: osvs's own (seed, hardened) and
// its mutants are defined in kernels/src/builtin_combines.cpp, a user's are declared in an adapter
// file with OSVS_REGISTER_COMBINE (osvs/api/combine.h) and enter it when the combine kind first
// judges them (combine_handle, osvs/api/combine_laws.h: a plugin's too). The executors, bounds,
// properties, replay and audit read what the entry declares; nothing is dispatched on a closed
// list, so adding an operator edits no file of osvs.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/combine_mutants.h"
#include "osvs/kernels/combine_seed.h"

namespace osvs {

struct CombineOperator;  // combine_operator.h

/// The algebra an operator declares: which laws it claims to satisfy bitwise, and which of the
/// catalogue's derived bounds applies to it (docs/semantics.md §5). A mutant declares the algebra
/// of the operator it was derived from, so that it is held to the same laws.
struct CombineAlgebra {
  bool bitwise_commutative;
  bool exact_identity;
  bool rescales_both_sides;  ///< the bound's shape: two exps per combine (seed) or one (hardened)
};

namespace builtin_combine {
extern const CombineOperator seed, hardened, overwrite_m, no_rescale, naive_identity,
    unordered_ties, fast_exp;
}  // namespace builtin_combine

/// A registered combine operator. Compared by identity; cheap to copy. A default-constructed
/// handle names the hardened operator, the one osvs recommends.
class CombineKind {
 public:
  constexpr CombineKind() : op_(&builtin_combine::hardened) {}
  explicit constexpr CombineKind(const CombineOperator* op) : op_(op) {}
  const CombineOperator& op() const { return *op_; }
  constexpr bool operator==(CombineKind o) const { return op_ == o.op_; }
  constexpr bool operator!=(CombineKind o) const { return op_ != o.op_; }

  // osvs's own operators (combine_seed.h, combine_hardened.h) and mutants (combine_mutants.h).
  static const CombineKind Seed;
  static const CombineKind Hardened;
  static const CombineKind MutantOverwriteM;
  static const CombineKind MutantNoRescale;
  static const CombineKind MutantNaiveIdentity;
  static const CombineKind MutantUnorderedTies;
  static const CombineKind MutantFastExp;

 private:
  const CombineOperator* op_;
};

inline constexpr CombineKind CombineKind::Seed{&builtin_combine::seed};
inline constexpr CombineKind CombineKind::Hardened{&builtin_combine::hardened};
inline constexpr CombineKind CombineKind::MutantOverwriteM{&builtin_combine::overwrite_m};
inline constexpr CombineKind CombineKind::MutantNoRescale{&builtin_combine::no_rescale};
inline constexpr CombineKind CombineKind::MutantNaiveIdentity{&builtin_combine::naive_identity};
inline constexpr CombineKind CombineKind::MutantUnorderedTies{&builtin_combine::unordered_ties};
inline constexpr CombineKind CombineKind::MutantFastExp{&builtin_combine::fast_exp};

/// osvs's own operators under test (the suite's default sweep).
inline constexpr CombineKind kAllCombines[] = {CombineKind::Seed, CombineKind::Hardened};

/// osvs's deliberately broken operators (the mutation run reads them from the registry,
/// registered_mutants(); this list is what osvs itself defines).
inline constexpr CombineKind kMutantCombines[] = {
    CombineKind::MutantOverwriteM, CombineKind::MutantNoRescale, CombineKind::MutantNaiveIdentity,
    CombineKind::MutantUnorderedTies, CombineKind::MutantFastExp};

/// The operator's registered name.
const char* to_string(CombineKind k);

/// The registered operator named `s`, or nullopt.
std::optional<CombineKind> parse_combine(std::string_view s);

/// The operator a mutant was derived from (itself for a real operator).
CombineKind original_of(CombineKind k);

/// Whether k is a deliberately broken operator (it declares the operator it came from).
bool is_mutant(CombineKind k);

/// The algebra k declares (a mutant: its original's).
CombineAlgebra algebra_of(CombineKind k);

/// Every registered operator, osvs's own first, then the user's in registration order.
std::vector<CombineKind> registered_combines();

/// The registered mutants (osvs's own and any a user registered).
std::vector<CombineKind> registered_mutants();

}  // namespace osvs
