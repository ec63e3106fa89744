// What the proofs assume of the exps: nothing but the facts below. The operators call exp through
// an uninterpreted function ("exp" for kexp, "exp2" for exp2f), so a proof holds for every
// function with these facts, whichever exp a build links.
//
// Each fact says: the exp is correctly rounded on every input with bits in [first, last]. The
// value asserted is exhaustive/'s correctly rounded b^x (exact_exp), never a typed constant, and
// formal.exp_facts checks the fact on every exp the function stands for with exhaustive/'s own
// measurement (measure() with a declared accuracy of 0 ulp over exactly those inputs): the host
// exps in CI, the device ones where a GPU is present (the GPU suite).
#pragma once

#include <z3++.h>

#include <cstdint>
#include <string>
#include <vector>

#include "osvs/exhaustive/exact_exp.h"
#include "osvs/formal/context.h"
#include "osvs/formal/function_fact.h"

namespace osvs::formal {

/// Every fact the proofs may use (binary32 inputs).
const std::vector<FunctionFact>& exp_facts();
/// The same facts over the inputs of `format` (bf16, fp16: formal/README.md, "bf16 and fp16
/// states"): exp(+-0) = 1 and exp(NaN) is NaN, the inputs being the format's bits.
std::vector<FunctionFact> exp_facts(const Format& format);

/// The base of an uninterpreted function's exp; throws std::invalid_argument for another name.
exhaustive::ExpBase base_of(const std::string& function);

/// The exhaustive/ names of the exps `function` stands for (exps_under_test()).
std::vector<std::string> exps_standing_for(const std::string& function);

}  // namespace osvs::formal
