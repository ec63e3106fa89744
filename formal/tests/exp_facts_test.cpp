// Every fact the proofs assume of an exp (exp_facts.h), checked by exhaustive/'s own measurement
// on every exp the uninterpreted function stands for: measure() over exactly the fact's inputs
// with a declared accuracy of 0 ulp must find no input that is not correctly rounded. Device exps
// are measured where a GPU is present (the GPU suite) and skipped, with the reason, elsewhere.
#include <gtest/gtest.h>

#include "osvs/exhaustive/device_exps.h"
#include "osvs/exhaustive/measurement.h"
#include "osvs/formal/exp_facts.h"

namespace osvs::formal {
namespace {

TEST(ExpFacts, EveryFactHoldsForEveryExpItStandsFor) {
  const exhaustive::DeviceDescription device = exhaustive::describe_device();
  int checked = 0;
  for (const FunctionFact& fact : exp_facts()) {
    for (const std::string& name : exps_standing_for(fact.function)) {
      exhaustive::ExpUnderTest e = exhaustive::find_exp(name);
      if (e.side == exhaustive::Side::Device && !device.present) {
        std::cout << "not measured here: " << name << " (" << device.why_absent << ")\n";
        continue;
      }
      e.declared.max_ulp = 0;  // the fact: correctly rounded on these inputs
      e.declared.ulp_per_abs_x = 0;
      e.declared.normal_results_only = false;
      exhaustive::MeasureSettings s;
      s.range.first = fact.first;
      s.range.end = std::uint64_t{fact.last} + 1;
      const exhaustive::ExpMeasurement m = exhaustive::measure({e}, s).front();
      EXPECT_EQ(m.inputs, s.range.count()) << fact.statement << " " << name;
      EXPECT_EQ(m.not_correctly_rounded, 0u) << fact.statement << " fails for " << name;
      EXPECT_EQ(m.violations, 0u) << fact.statement << " fails for " << name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(ExpFacts, EachFunctionStandsForSomeExp) {
  EXPECT_FALSE(exps_standing_for("exp").empty());
  EXPECT_FALSE(exps_standing_for("exp2").empty());
  EXPECT_THROW(exps_standing_for("log"), std::invalid_argument);
}

}  // namespace
}  // namespace osvs::formal
