// Every fact the proofs assume of a log (log_facts.h), checked on every log the uninterpreted
// function stands for: on each of the fact's inputs the log must return, bit for bit, MPFR's
// correctly rounded log (correctly_rounded.h). Device logs are evaluated where a GPU is present
// (the GPU suite) and skipped, with the reason, elsewhere.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "osvs/exhaustive/device_exps.h"
#include "osvs/formal/correctly_rounded.h"
#include "osvs/formal/device_logs.h"
#include "osvs/formal/log_facts.h"
#include "osvs/kernels/hd.h"
#include "osvs/kernels/hex.h"

namespace osvs::formal {
namespace {

std::vector<float> inputs_of(const FunctionFact& fact) {
  std::vector<float> in;
  for (std::uint64_t bits = fact.first; bits <= fact.last; ++bits)
    in.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
  return in;
}

/// Checks every fact on every log of the side asked for (the host's, or CUDA's on the GPU);
/// returns how many (fact, log) pairs it checked.
int check_every_fact(bool on_device) {
  int checked = 0;
  for (const FunctionFact& fact : log_facts()) {
    const std::vector<float> in = inputs_of(fact);
    for (const LogUnderTest& log : logs_standing_for(fact.function)) {
      if (log.on_device != on_device) continue;
      std::vector<float> out(in.size());
      if (on_device)
        evaluate_log_on_device(log.name, in.data(), out.data(), in.size());
      else
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = log.host(in[i]);
      for (std::size_t i = 0; i < in.size(); ++i) {
        const float want = correctly_rounded(fact.function, in[i]);
        EXPECT_EQ(float_bits(out[i]), float_bits(want))
            << fact.statement << " fails for " << log.name << " at " << hex(in[i]) << ": "
            << hex(out[i]) << " instead of " << hex(want);
      }
      ++checked;
    }
  }
  return checked;
}

TEST(LogFacts, EveryFactHoldsForEveryHostLog) {
  EXPECT_GT(check_every_fact(false), 0);
}

// CUDA's logf / log2f and the device portable logs, evaluated on the GPU (the GPU suite's
// formal.log_facts_device); skipped, with the reason, without one.
TEST(LogFacts, EveryFactHoldsForEveryDeviceLog) {
  const exhaustive::DeviceDescription device = exhaustive::describe_device();
  if (!device.present)
    GTEST_SKIP() << "no GPU here (" << device.why_absent
                 << "): CUDA's logf, log2f and the device portable logs are checked where one is";
  std::cout << "on " << device.name << " (sm " << device.compute_capability << ", " << device.nvcc
            << ")\n";
  EXPECT_GT(check_every_fact(true), 0);
}

// The reference itself at the points where the answer is exact: log(1) = +0, log2(2^k) = k.
TEST(LogFacts, ReferenceIsExactWhereTheLogIs) {
  EXPECT_EQ(float_bits(correctly_rounded("log", 1.0f)), 0u);
  EXPECT_EQ(correctly_rounded("log2", 2.0f), 1.0f);
  EXPECT_EQ(correctly_rounded("log2", 0x1p-20f), -20.0f);
  EXPECT_THROW(correctly_rounded("log", -1.0f), std::invalid_argument);
  EXPECT_THROW(correctly_rounded("sin", 1.0f), std::invalid_argument);
}

TEST(LogFacts, EachFunctionStandsForSomeHostLog) {
  for (const char* f : {"log", "log2"}) {
    int host = 0;
    for (const LogUnderTest& log : logs_standing_for(f)) host += log.on_device ? 0 : 1;
    EXPECT_GT(host, 0) << f;
  }
  EXPECT_THROW(logs_standing_for("exp"), std::invalid_argument);
}

}  // namespace
}  // namespace osvs::formal
