// The law of every kind (osvs/api/kind.h): its one name, its sentence, its check of a case on a
// kernel, what in a kernel's declaration rules it out, whether it has one fixed case, and for an
// invariance whether it asks for bits or for the contract.
#pragma once

#include <string>

#include "osvs/properties/verdict.h"

namespace osvs {

template <class Kernel, class Case>
struct KindLaw {
  std::string name;  ///< stable identifier: "accuracy", "poison", ... (law_names.h)
  std::string law;   ///< one sentence
  /// The verdict on c for kernel k (a breach the runner reports fails it: Kind::check).
  Verdict (*check)(const Kernel& k, const Case& c);
  /// Why the law cannot judge kernel k at all (from its declaration), or "" when it can.
  std::string (*excluded)(const Kernel& k);
  /// The law has one fixed case per kernel (no generation, nothing to shrink): drivers run it
  /// once.
  bool single_case = false;
  /// For an invariance (a law across calls: the same problem computed by other calls, which
  /// must agree): whether it asks kernel k for the same bits (true) or, as k's declaration
  /// allows, for every call within k's contract (false). nullptr: a law of one call. The
  /// determinism certificate (audit/README.md) lists a kernel's invariances.
  bool (*bitwise)(const Kernel& k) = nullptr;
};

}  // namespace osvs
