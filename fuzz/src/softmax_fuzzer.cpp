// The libFuzzer entry point: decode the bytes into a property and a case, check it on the CPU
// executor, and abort on a finding so that libFuzzer saves (and can minimise) the input. Known
// defects (a law failing where it is not claimed) are counted per property and printed at exit.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "osvs/fuzz/case_decoder.h"
#include "osvs/fuzz/judge.h"

namespace {

struct KnownDefectCounts {
  std::map<std::string, long> by_property;
  long executions = 0;

  ~KnownDefectCounts() {
    if (by_property.empty()) return;
    std::fprintf(stderr, "osvs fuzz: known defects (law failing where not claimed) in %ld runs:\n",
                 executions);
    for (const auto& [name, count] : by_property)
      std::fprintf(stderr, "  %-26s %ld\n", name.c_str(), count);
  }
};

KnownDefectCounts known_defects;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::unique_ptr<osvs::Executor> cpu = osvs::make_cpu_executor();
  const osvs::fuzz::FuzzInput in = osvs::fuzz::decode_fuzz_input({data, size});
  const osvs::fuzz::Judgement j = osvs::fuzz::judge(*in.property, in.input, *cpu);
  ++known_defects.executions;
  if (j.outcome == osvs::fuzz::Outcome::KnownDefect) ++known_defects.by_property[in.property->name];
  if (j.outcome == osvs::fuzz::Outcome::Finding) {
    const std::string report = osvs::fuzz::format_judgement(*in.property, in.input, j);
    std::fprintf(stderr, "\nosvs fuzz: FINDING\n%s\n", report.c_str());
    std::abort();
  }
  return 0;
}
