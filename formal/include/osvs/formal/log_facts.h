// What the proofs assume of the logs: nothing but the facts below. The attention merge calls its
// log through lse_log (lse_math.h: log_b(1 + e), base e or 2), which formal/ makes an
// uninterpreted function ("log", "log2"), so a proof holds for every log with these facts,
// whichever log a build links.
//
// Each fact says: the log is correctly rounded on the fact's inputs. The value asserted is MPFR's
// correctly rounded log (correctly_rounded.h), never a typed constant, and formal.log_facts checks
// the fact on every log the function stands for: the host's (glibc logf / log2f, the CPU model's
// std::log / std::log2 of a float, and portable_logf / portable_log2f) in CI, CUDA's logf / log2f
// and the device portable logs only where a GPU is present (the GPU suite).
#pragma once

#include <string>
#include <vector>

#include "osvs/formal/function_fact.h"

namespace osvs::formal {

/// Every fact of a log the proofs may use (binary32 inputs).
const std::vector<FunctionFact>& log_facts();
/// The same facts over the inputs of `format` (bf16, fp16): log(2) = RN(ln 2) and log2(2) = 1 in
/// the format, at its bits of 2.
std::vector<FunctionFact> log_facts(const Format& format);

/// Every fact of an exp or a log (exp_facts() then log_facts()): what a Context assumes.
std::vector<FunctionFact> all_facts();
/// The same in `format` (exp_facts(format) then log_facts(format)).
std::vector<FunctionFact> all_facts(const Format& format);

/// One log an uninterpreted log stands for.
struct LogUnderTest {
  std::string name;                ///< e.g. "glibc_logf", "cuda_log2f"
  std::string function;            ///< "log" or "log2"
  bool on_device = false;          ///< evaluated on the GPU (device_logs.h)
  float (*host)(float) = nullptr;  ///< the host function, when !on_device
};

/// The logs `function` ("log", "log2") stands for; throws std::invalid_argument otherwise.
std::vector<LogUnderTest> logs_standing_for(const std::string& function);

}  // namespace osvs::formal
