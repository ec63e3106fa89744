#include "osvs/audit/attention_audit.h"

#include <rapidcheck.h>

#include <chrono>
#include <functional>
#include <memory>

#include "osvs/kernels/stable_hash.h"
#include "osvs/properties/gen/attention.h"

namespace osvs::audit {
namespace {

/// The bounded laws: each judges a case against the derived bound and reports its tightness as
/// the evidence "worst error / bound" (properties/src/attention/attention_judge.cpp).
template <class Case, class Under>
struct BoundedLaw {
  const char* name;
  Verdict (*check)(const Case&, const Under&);
};

constexpr BoundedLaw<MergeCase, MergeUnderTest> kMergeLaws[] = {
    {"merge_accuracy", &check_merge_accuracy},
    {"merge_associativity", &check_merge_associativity},
    {"merge_tree_invariance", &check_merge_tree_invariance},
};
constexpr BoundedLaw<DecodeCase, DecodeUnderTest> kDecodeLaws[] = {
    {"decode_accuracy", &check_decode_accuracy},
    {"decode_partition_invariance", &check_decode_partition_invariance},
    {"decode_permutation", &check_decode_permutation},
};

double tightness_of(const Verdict& v) {
  double t = 0;
  for (const Evidence& e : v.evidence)
    if (e.what == "worst error / bound") t = std::max(t, e.ulp_error);
  return t;
}

/// `cases` cases of `gen` from a seed of the run seed and the law, without shrinking.
template <class Case>
AttentionLawAudit sweep(const std::string& law, rc::Gen<Case> gen,
                        const std::function<Verdict(const Case&)>& judge, std::uint64_t seed,
                        int cases) {
  AttentionLawAudit a;
  a.law = law;
  rc::detail::TestParams params;
  params.seed = fnv1a64(std::to_string(seed) + "/attention/" + law);
  params.maxSuccess = cases;
  params.disableShrinking = true;
  rc::detail::checkTestable(
      [&] {
        const Case c = *gen;
        Verdict v;
        try {
          v = judge(c);
        } catch (const std::exception& e) {
          v = Verdict::fail(std::string("the kernel threw: ") + e.what());
        }
        if (!v.judged()) {
          ++a.vacuous;
          return;
        }
        ++a.cases;
        const double t = tightness_of(v);
        a.tightness.push_back(t);
        a.worst_tightness = std::max(a.worst_tightness, t);
        if (v.fails()) {
          if (a.violations++ == 0) a.first_violation = v.explanation;
        }
      },
      rc::detail::TestMetadata{}, params);
  return a;
}

}  // namespace

bool AttentionAudit::passes() const {
  if (!not_run.empty()) return true;  // said in the report; the softmax sections still gate
  for (const AttentionLawAudit& l : laws)
    if (l.violations > 0 || l.cases == 0) return false;
  return true;
}

AttentionAudit audit_attention(const std::string& executor, std::uint64_t seed, int cases) {
  const auto start = std::chrono::steady_clock::now();
  AttentionAudit r;
  std::unique_ptr<AttentionExecutor> ex;
  std::string why;
  if (executor == "cuda" || executor == "best") ex = make_cuda_attention_executor(&why);
  if (!ex && executor != "cuda") ex = make_cpu_attention_executor();
  if (!ex) {
    r.not_run = "no cuda executor: " + why;
    return r;
  }
  r.executor = std::string(ex->name()) + ": " + ex->describe();
  const MergeUnderTest merge = merge_under_test(*ex);
  const DecodeUnderTest decode = decode_under_test(*ex);
  for (const auto& law : kMergeLaws)
    r.laws.push_back(sweep<MergeCase>(
        law.name, gen::merge_case(), [&](const MergeCase& c) { return law.check(c, merge); }, seed,
        cases));
  for (const auto& law : kDecodeLaws)
    r.laws.push_back(sweep<DecodeCase>(
        law.name, gen::decode_case(), [&](const DecodeCase& c) { return law.check(c, decode); },
        seed, cases));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace osvs::audit
