// Judging one fuzz input: run the property on the case and decide whether the result is a
// finding. A finding is a claimed law that fails, or a property that throws on a case the decoder
// promised to be valid; a law that fails where the configuration does not claim it (e.g. seed
// commutativity under FMA contraction) is a known defect, counted but not reported. A case outside
// the law's domain (vacuous) or a law that cannot run on the executor (determinism and agreement
// with the CPU model, on the CPU model) is not run: neither a pass nor a finding.
#pragma once

#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/registry.h"
#include "osvs/properties/verdict.h"

namespace osvs::fuzz {

enum class Outcome {
  Holds,        ///< the property was checked and holds
  NotRun,       ///< the case lies outside the law's domain, or the law cannot run here
  KnownDefect,  ///< the property fails on a configuration that does not claim it
  Finding,      ///< the property fails where claimed, or threw
};

struct Judgement {
  Outcome outcome = Outcome::Holds;
  bool claimed = false;  ///< whether the configuration claims the law
  bool threw = false;    ///< the property threw; verdict.explanation holds the message
  Verdict verdict;
};

/// Runs `p` on `c` with `ex` and classifies the result; never throws for a property's exception.
Judgement judge(const PropertyInfo& p, const Case& c, Executor& ex);

/// "holds", "not run", "known defect" or "finding".
const char* to_string(Outcome o);

/// A readable report of a judgement: property, law, configuration, verdict, the case as JSON.
std::string format_judgement(const PropertyInfo& p, const Case& c, const Judgement& j);

}  // namespace osvs::fuzz
