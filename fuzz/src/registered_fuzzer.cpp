// The libFuzzer entry point over the registry (registered_fuzz.h): osvs's CPU-model entries of
// every kind are linked in (and any host kernel a program registers); a finding prints the
// regression file that replays it and aborts, so that libFuzzer saves (and can minimise) the
// input. Declared known defects are counted and printed at exit.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "osvs/fuzz/registered_fuzz.h"

namespace {

struct Counts {
  std::map<std::string, long> ran, known_defects;

  ~Counts() {
    std::fprintf(stderr, "osvs fuzz (registered entries): runs by kernel/law, known defects:\n");
    for (const auto& [name, count] : ran)
      std::fprintf(stderr, "  %-48s %ld %ld\n", name.c_str(), count,
                   known_defects.count(name) ? known_defects.at(name) : 0L);
  }
};

Counts counts;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const osvs::fuzz::RegisteredRun r = osvs::fuzz::fuzz_registered({data, size});
  if (!r.ran) return 0;
  const std::string key = r.kernel + "/" + r.law;
  ++counts.ran[key];
  if (r.known_defect) ++counts.known_defects[key];
  if (r.finding) {
    std::fprintf(stderr, "\nosvs fuzz: FINDING\n%s\n", osvs::fuzz::format_run(r).c_str());
    std::abort();
  }
  return 0;
}
