// The operators under proof and the domain of each law. Every domain below is justified next to
// it; formal/README.md gathers them, with the solver's counterexamples outside each domain.
#include "osvs/formal/operators.h"

#include "engine_combine.h"
#include "osvs/formal/attention_merge.h"
#include "osvs/kernels/combine_hardened.h"
#include "osvs/kernels/combine_mutants.h"
#include "osvs/kernels/combine_seed.h"
#include "osvs/kernels/find_by_name.h"

namespace osvs::formal {
namespace {

bool is_identity_law(Law l) {
  return l != Law::Commutativity;
}

std::vector<FormalOperator> make_operators() {
  std::vector<FormalOperator> ops;
  ops.push_back(formal_operator<HardenedCombine>([](Law l, bool claimed) -> LawClaim {
    if (!is_identity_law(l)) return {l, claimed, kEveryState, "every state: NaNs are canonical"};
    // (m, -0) (+) (-inf, 0) gives (m, +0): fma(0, 0, -0) = +0. No reduction makes d = -0.
    return {l, claimed, kWellFormedSignClear,
            "identity of a state the operator can hold: d = -0 comes out +0"};
  }));
  // A registered mutant of hardened (combine_mutants.h): the tie rule of m dropped. It is held
  // to hardened's declarations, so its commutativity is claimed and the solver must break it (a
  // known defect); both executors run it, so its counterexample is replayed on the device too.
  // The search fixes the maxima to +0 and -0: the exp meets only its facts there.
  ops.push_back(formal_operator<MutantUnorderedTies>([](Law l, bool claimed) -> LawClaim {
    if (!is_identity_law(l)) {
      Domain search = kWellFormedNoNan;
      search.fixed_m = {0.0f, -0.0f};
      return {l, claimed, search, "a planted defect: the solver finds the +-0 tie", true};
    }
    return {l, claimed, kWellFormedSignClear, "as hardened: its identity is hardened's"};
  }));
  ops.push_back(formal_operator<SeedCombine>([](Law l, bool claimed) -> LawClaim {
    // Not claimed: the solver must find the FMA contraction's asymmetry on ordinary states. The
    // search fixes the maxima to 0 and -1 (the d's stay free finite floats): the source then runs
    // down one path, the exp meets 0 (a fact) and -1 (pinned to this machine's exp), and the
    // search takes seconds instead of minutes (formal/README.md, "Measured times").
    Domain search = kFinite;
    search.fixed_m = {0.0f, -1.0f};
    return {l, claimed, search, "finite d's, maxima 0 and -1: the defect is the contraction"};
  }));
  ops.push_back(formal_operator<EngineCombine>([](Law l, bool claimed) -> LawClaim {
    // Its adapter declares the NaN states known defects (examples/combine_operator/adapter.cpp).
    if (!is_identity_law(l)) {
      // A declared known defect (NaN operands), and the solver found another: on a tie of +0
      // and -0 with equal d's, the first operand is big either way, so m is the first's zero.
      // Over its whole no-NaN domain the search took z3 166 s on 2 cores; CI's search fixes the
      // maxima to +0 and -0 (d's free) and takes under a second (formal/README.md).
      Domain search = kWellFormedNoNan;
      search.fixed_m = {0.0f, -0.0f};
      return {l, claimed, search, "a known defect: the solver finds the +-0 tie", true};
    }
    return {l, claimed, kWellFormedNoNanSignClear,
            "NaN states are its declared known defect; d = -0 comes out +0"};
  }));
  const auto merge_claim = [](Law l, bool claimed) -> LawClaim {
    if (!is_identity_law(l))
      return {l, claimed, kEveryState,
              "every (lse, o): a NaN lse, and an o that comes out NaN, "
              "are canonical; a tie takes b^(+-0) = 1"};
    // Outside: a NaN or +inf lse merges to the canonical NaN row, and an empty partial's o comes
    // out +0 (the documented empty result), whatever it held (formal/README.md has the solver's
    // counterexamples).
    return {l, claimed, kAttentionPartial,
            "a partial the merge can hold: NaN / +inf lse only as the canonical NaN row, an empty "
            "one with o = +0"};
  };
  ops.push_back(formal_operator<AttentionMerge>(merge_claim));
  ops.push_back(formal_operator<AttentionMergeBase2>(merge_claim));
  return ops;
}

}  // namespace

const std::vector<FormalOperator>& formal_operators() {
  static const std::vector<FormalOperator> ops = make_operators();
  return ops;
}

const FormalOperator& find_formal_operator(std::string_view name) {
  return find_by_name(formal_operators(), name, "osvs_formal: unknown operator");
}

}  // namespace osvs::formal
