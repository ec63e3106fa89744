// The law of every kind (osvs/api/kind.h): its one name, its sentence, its check of a case on a
// kernel, what in a kernel's declaration rules it out, and whether it has one fixed case.
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
};

}  // namespace osvs
