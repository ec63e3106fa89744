#include "osvs/formal/log_facts.h"

#include <cmath>
#include <stdexcept>

#include "binary32_facts.h"
#include "osvs/formal/exp_facts.h"
#include "osvs/kernels/portable_log.h"

namespace osvs::formal {
namespace {

float glibc_logf(float x) {
  return std::log(x);  // the float overload: logf, as lse_log calls it in the CPU model
}
float glibc_log2f(float x) {
  return std::log2(x);
}
float host_portable_logf(float x) {
  return portable_logf(x);
}
float host_portable_log2f(float x) {
  return portable_log2f(x);
}

// The proofs' steps that need them (formal/README.md, "What is assumed of log"): on a tie of the
// lse's +0 and -0 the merged lse is big.lse + log_b(1 + b^(+-0)) = big.lse + log_b(2) with big the
// first operand, so +0 + L and -0 + L must agree: L must not be -0 (it is ln 2, or 1).
std::vector<FunctionFact> make_facts(const Format& format) {
  const char* tie = "the merge's commutativity on a tie of +0 and -0 lse's (big.lse + log_b(2))";
  const std::uint32_t two = format.bits_of(2.0f);
  return {{"log", two, two, "log(2) = RN(ln 2)", tie}, {"log2", two, two, "log2(2) = 1", tie}};
}

}  // namespace

const std::vector<FunctionFact>& log_facts() {
  return binary32_facts<make_facts>();
}

std::vector<FunctionFact> log_facts(const Format& format) {
  return make_facts(format);
}

std::vector<FunctionFact> all_facts() {
  return all_facts(kFp32);
}

std::vector<FunctionFact> all_facts(const Format& format) {
  std::vector<FunctionFact> facts = exp_facts(format);
  for (const FunctionFact& f : log_facts(format)) facts.push_back(f);
  return facts;
}

std::vector<LogUnderTest> logs_standing_for(const std::string& function) {
  if (function == "log")
    return {{"glibc_logf", function, false, glibc_logf},
            {"portable_logf", function, false, host_portable_logf},
            {"cuda_logf", function, true, nullptr},
            {"cuda_portable_logf", function, true, nullptr}};
  if (function == "log2")
    return {{"glibc_log2f", function, false, glibc_log2f},
            {"portable_log2f", function, false, host_portable_log2f},
            {"cuda_log2f", function, true, nullptr},
            {"cuda_portable_log2f", function, true, nullptr}};
  throw std::invalid_argument("osvs::formal: no log function '" + function + "' (log, log2)");
}

}  // namespace osvs::formal
