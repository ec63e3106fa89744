// check_case: how every driver (the law runner, replay, the fuzzer) judges a case with a property,
// on the kernel the case names. Header-only, so that replay/, which takes its property lookup as a
// parameter and does not link the registry, judges through it too.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/kernels/softmax_mutants.h"
#include "osvs/properties/case.h"
#include "osvs/properties/registry.h"
#include "osvs/properties/verdict.h"

namespace osvs {

/// p.check(c, ex); with c.mutant set, the registered softmax mutant of that name runs in place of
/// the case's kernel (mutant_executor over ex). Throws std::invalid_argument naming the
/// registered mutants for an unknown name, and naming the property for a case of bf16 / fp16
/// states (Case::state_format) that it does not take (PropertyInfo::narrow_states).
inline Verdict check_case(const PropertyInfo& p, const Case& c, Executor& ex) {
  if (c.state_format != DType::F32 && !p.narrow_states)
    throw std::invalid_argument("the property " + p.name +
                                " takes float32 states only; this case's states are stored in " +
                                to_string(c.state_format) + " (state_format)");
  if (c.mutant.empty()) return p.check(c, ex);
  const std::unique_ptr<Executor> mutant = mutant_executor(ex, find_softmax_mutant(c.mutant));
  return p.check(c, *mutant);
}

}  // namespace osvs
