// The binary32 facts of an exp or a log, made once: what exp_facts() and log_facts() return (the
// facts of every format are made on each call: exp_facts(format), log_facts(format)).
#pragma once

#include <vector>

#include "osvs/formal/format.h"
#include "osvs/formal/function_fact.h"

namespace osvs::formal {

/// FactsIn(kFp32), made on the first call and kept.
template <std::vector<FunctionFact> (*FactsIn)(const Format&)>
const std::vector<FunctionFact>& binary32_facts() {
  static const std::vector<FunctionFact> facts = FactsIn(kFp32);
  return facts;
}

}  // namespace osvs::formal
