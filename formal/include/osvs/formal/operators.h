// The operators whose laws formal/ proves, each with the domain of each law and why that domain.
// The laws come from the operator's own declarations (kBitwiseCommutative, kExactIdentity): a law
// it claims must be proven; one it does not claim is asked of the solver too, and its
// counterexample is the record of the defect (the seed's FMA contraction).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/formal/domain.h"
#include "osvs/formal/law.h"
#include "osvs/formal/prove.h"

namespace osvs::formal {

struct LawClaim {
  Law law;
  bool claimed;     ///< from the operator's declarations
  Domain domain;    ///< where it is proven (claimed) or where the counterexample is sought
  std::string why;  ///< why this domain and not every state
  /// Claimed, but declared a known defect by the operator's adapter: the solver must find a
  /// counterexample that the CPU model reproduces, as for a law not claimed.
  bool known_defect = false;
  /// What the run must show: a proof, or a counterexample the CPU model reproduces.
  bool expect_proof() const { return claimed && !known_defect; }
};

struct FormalOperator {
  std::string name;  ///< the operator's kName
  std::vector<LawClaim> laws;
  std::function<ProofResult(Law, const Domain&, const ProveOptions&)> prove;
  /// Whether it runs on bf16 / fp16 states (its combine is written over its state type).
  bool narrow_formats = false;
};

/// hardened, mutant_unordered_ties (hardened's tie rule dropped), seed, engine_combine
/// (examples/combine_operator), attention_merge and attention_merge_base2 (attention_merge.h: the
/// merge of (lse, o) partials, head_dim 1).
const std::vector<FormalOperator>& formal_operators();

/// The one named `name`; throws std::invalid_argument listing the names otherwise.
const FormalOperator& find_formal_operator(std::string_view name);

/// The laws an operator with these declarations is held to, each with `domain_of(law)`.
template <class Op>
std::vector<LawClaim> claims_of(const std::function<LawClaim(Law, bool claimed)>& claim) {
  std::vector<LawClaim> laws = {claim(Law::Commutativity, Op::kBitwiseCommutative)};
  for (Law l : {Law::IdentityLeft, Law::IdentityRight, Law::IdentityOfIdentity})
    laws.push_back(claim(l, Op::kExactIdentity));
  return laws;
}

template <class Op>
FormalOperator formal_operator(const std::function<LawClaim(Law, bool claimed)>& claim) {
  return {Op::kName, claims_of<Op>(claim),
          [](Law law, const Domain& d, const ProveOptions& o) { return prove<Op>(law, d, o); },
          detail::kHasNarrowModel<Op>};
}

}  // namespace osvs::formal
