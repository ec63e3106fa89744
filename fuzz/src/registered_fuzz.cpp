#include "osvs/fuzz/registered_fuzz.h"

#include <vector>

#include "osvs/api/regression.h"
#include "osvs/fuzz/kind_case_decoder.h"

namespace osvs::fuzz {
namespace {

/// The input's run on kind K: kernel and law chosen from the bytes among those that run here.
template <class K>
RegisteredRun run_kind(ByteReader& in) {
  RegisteredRun r;
  r.kind = K::name;
  std::vector<const typename K::Kernel*> host;
  for (const auto& k : K::kernels())
    if (k.where() == Where::Host) host.push_back(&k);
  if (host.empty()) return r;
  const auto& k = *host[in.below(static_cast<std::uint32_t>(host.size()))];
  std::vector<const typename K::Law*> laws;
  for (const auto& law : K::laws())
    if (!K::single_case(law) && why_skipped<K>(k, law).empty()) laws.push_back(&law);
  if (laws.empty()) return r;
  const auto& law = *laws[in.below(static_cast<std::uint32_t>(laws.size()))];
  const typename K::Case c = decode_case(in, k, law);
  r.kernel = k.name();
  r.law = law.name;
  r.case_summary = K::summary(c);
  r.verdict = K::check(law, k, c);
  r.ran = true;
  if (!r.verdict.fails()) return r;
  r.known_defect = k.known_defects().count(law.name) > 0;
  r.finding = !r.known_defect;
  if (r.finding) {
    Regression<K> reg;
    reg.kernel = k.name();
    reg.law = law.name;
    reg.note = "found failing: replay must show the law holding once the kernel is fixed";
    reg.found = regression_provenance("fuzz (registered entries)");
    reg.explanation = r.verdict.explanation;
    reg.input = c;
    r.regression = to_json(reg);
  }
  return r;
}

}  // namespace

RegisteredRun fuzz_registered(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  int kinds = 0;
  for_each_kind([&](auto) { ++kinds; });
  const int chosen = static_cast<int>(in.below(static_cast<std::uint32_t>(kinds)));
  RegisteredRun out;
  int i = 0;
  for_each_kind([&](auto kind) {
    if (i++ == chosen) out = run_kind<decltype(kind)>(in);
  });
  return out;
}

std::string format_run(const RegisteredRun& r) {
  return r.kind + " kernel " + r.kernel + ", law " + r.law + "\ncase: " + r.case_summary +
         "\nwhy: " + r.verdict.explanation + "\nregression file:\n" + r.regression;
}

}  // namespace osvs::fuzz
