// The exact laws of a combine operator (combine_entry.h's declarations) and what a proof of one
// returns: proven, or the solver's model as a counterexample that the CPU model confirms.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "osvs/formal/format.h"
#include "osvs/kernels/state.h"

namespace osvs::formal {

enum class Law {
  Commutativity,      ///< a (+) b == b (+) a, bit for bit          (kBitwiseCommutative)
  IdentityLeft,       ///< initial() (+) s == s                     (kExactIdentity)
  IdentityRight,      ///< s (+) initial() == s                     (kExactIdentity)
  IdentityOfIdentity  ///< initial() (+) initial() == initial()     (kExactIdentity)
};

/// "commutativity", "identity_left", "identity_right", "identity_of_identity": the first three
/// are the properties' names (properties/src/suite.cpp), which replay the files written here.
const char* to_string(Law law);
std::optional<Law> parse_law(std::string_view name);

/// One application of an uninterpreted exp or log in the model, with the real function's value
/// there (a NaN model value is reported as the quiet NaN: SMT has one NaN).
struct ExpValue {
  std::string function;
  float argument = 0;
  float model = 0;  ///< what the solver chose
  float host = 0;   ///< what this machine's exp gives (the CPU model's)
};

/// The solver's model: the inputs, and both sides of the law on the CPU model (real exp).
struct Counterexample {
  State a{};           ///< the first operand (the state s of an identity law)
  State b{};           ///< the second operand of commutativity
  State lhs{}, rhs{};  ///< the law's two sides, on this machine's CPU model
  /// An identity law of an operator whose identity is a family (prove.h, identity_of): b holds
  /// the identity the law used (for identity_of_identity, a holds the first one too).
  bool identity_from_model = false;
  bool reproduced = false;  ///< the CPU model shows lhs != rhs bitwise
  int refinements = 0;      ///< exp / log values pinned to the host's before it reproduced
  std::vector<ExpValue> exps;
};

struct ProofResult {
  std::string op;
  Law law = Law::Commutativity;
  std::string domain;
  /// The states' format (the counterexample's states hold its values, as floats).
  Format format = kFp32;
  bool proven = false;
  double seconds = 0;  ///< solver time, every refinement included
  int paths = 0;       ///< runs of the operator's source (explore.h)
  std::optional<Counterexample> counterexample;
  std::string smt2;  ///< the first query, SMT-LIB 2 (for other solvers)
};

/// "proven" or the counterexample in hex floats (kernels' hex.h), one line.
std::string describe(const ProofResult& r);

}  // namespace osvs::formal
