// The audit's section per registered attention kernel: every kernel of the registry is measured
// (osvs's own within their contracts, with distributions that hold together), and the release
// gate fails on a kernel outside its contract or failing a law it does not declare a known
// defect, and not on one that declares it.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "osvs/api/kind.h"
#include "osvs/api/registry.h"
#include "osvs/audit/attention_kernels_audit.h"
#include "osvs/audit/determinism_certificate.h"
#include "osvs/audit/report.h"
#include "tiled_attention.h"

namespace osvs::audit {
namespace {

/// osvs's tiled kernel, with every o 1 % too large: far outside an f32 contract of 5 + 4 n ulp.
void one_percent_off(const AttentionProblem& p) {
  builtin::tiled_attention<builtin::TiledAttention>(p);
  float* o = p.o<float>();
  for (std::int64_t i = 0; i < p.total_q * p.heads_q * p.head_dim_v; ++i) o[i] *= 1.01f;
}

/// osvs's tiled kernel, but a row that attends to no key gets lse +inf where its declaration
/// (osvs's tiled one) says -inf: every other output, and every run, as the tiled kernel's.
void empty_rows_lse_pos_inf(const AttentionProblem& p) {
  builtin::tiled_attention<builtin::TiledAttention>(p);
  if (p.lse == nullptr) return;
  for (std::int64_t i = 0; i < p.total_q * p.heads_q; ++i)
    if (p.lse[i] == -INFINITY) p.lse[i] = INFINITY;
}

/// osvs's tiled kernel, but every second launch moves its first o element one ulp up: not
/// deterministic, and so not invariant under anything that compares two launches.
void every_second_launch_off(const AttentionProblem& p) {
  builtin::tiled_attention<builtin::TiledAttention>(p);
  static int launches = 0;
  float* o = p.o<float>();
  if (++launches % 2 == 0 && p.total_q * p.heads_q * p.head_dim_v > 0)
    o[0] = std::nextafter(o[0], INFINITY);
}

AttentionKernel f32_tiled(const char* name, void (*run)(const AttentionProblem&)) {
  return builtin::declare_tiled_attention(name, run).in_types({DType::F32});
}

// Registered in this test only: the section iterates the registry, so these are audited beside
// osvs's own kernels.
OSVS_REGISTER_ATTENTION_KERNEL(test_one_percent_off) {
  return f32_tiled("test.attention.one_percent_off", one_percent_off);
}
OSVS_REGISTER_ATTENTION_KERNEL(test_empty_lse) {
  return f32_tiled("test.attention.empty_lse", empty_rows_lse_pos_inf);
}
OSVS_REGISTER_ATTENTION_KERNEL(test_second_launch_off) {
  return f32_tiled("test.attention.second_launch_off", every_second_launch_off);
}
OSVS_REGISTER_ATTENTION_KERNEL(test_empty_lse_declared) {
  return f32_tiled("test.attention.empty_lse_declared", empty_rows_lse_pos_inf)
      .known_defect("empty_rows", "an empty row's lse is +inf, not the declared -inf");
}

AttentionKernelsOptions small() {
  AttentionKernelsOptions o;
  o.seed = 20261130;
  o.cases = 6;
  o.threads = 2;
  o.invariance_shrink_seconds = 1;  // the failing invariances of the test's kernels: a case each
  return o;
}

const AttentionKernelsAudit& registry_audit() {
  static const AttentionKernelsAudit a =
      audit_attention_kernels(registered<AttentionKernel>(), small());
  return a;
}

const AttentionKernelAccuracy* find(const AttentionKernelsAudit& a, const std::string& name) {
  for (const AttentionKernelAccuracy& k : a.kernels)
    if (k.kernel == name) return &k;
  return nullptr;
}

TEST(AttentionKernelsAudit, EveryRegisteredKernelIsMeasured) {
  const AttentionKernelsAudit& a = registry_audit();
  const auto& kernels = registered<AttentionKernel>();
  ASSERT_EQ(a.kernels.size(), kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const AttentionKernelAccuracy& k = a.kernels[i];
    EXPECT_EQ(k.kernel, kernels[i].name());
    if (kernels[i].where() == Where::Device) {  // left to a device run (`--executor cuda`)
      EXPECT_FALSE(k.not_run.empty()) << k.kernel;
      continue;
    }
    EXPECT_TRUE(k.not_run.empty()) << k.kernel << ": " << k.not_run;
    EXPECT_TRUE(k.error.empty()) << k.kernel << ": " << k.error;
    EXPECT_EQ(k.generated_cases + k.vacuous_cases, 6) << k.kernel;
    EXPECT_GT(k.realistic_cases, 0) << k.kernel;
    EXPECT_GT(k.o_elements, 0) << k.kernel;
    // (a backward kernel writes no lse: its gradient elements fill the o columns)
    EXPECT_EQ(k.lse_elements > 0, kernels[i].writes_lse() && !kernels[i].backward()) << k.kernel;
    EXPECT_EQ(k.o_ulps.count, k.o_elements) << k.kernel;
    EXPECT_EQ(k.o_histogram.count(), k.o_elements) << k.kernel;
    EXPECT_EQ(k.tightness.count, k.o_elements + k.lse_elements) << k.kernel;
    for (const Quantiles& q : {k.o_ulps, k.lse_ulps, k.tightness}) {
      EXPECT_LE(q.p50, q.p99) << k.kernel;
      EXPECT_LE(q.p99, q.p99_9) << k.kernel;
      EXPECT_LE(q.p99_9, q.max) << k.kernel;
    }
    EXPECT_EQ(k.o_ulps.max, k.o_histogram.max()) << k.kernel;
    EXPECT_FALSE(k.worst.empty()) << k.kernel;
    EXPECT_LE(k.worst.size(), kAttentionWorstCases) << k.kernel;
    if (!k.worst.empty()) EXPECT_EQ(k.worst.front().tightness, k.tightness.max) << k.kernel;
    EXPECT_EQ(k.laws.size(), AttentionKind::laws().size() - 1)
        << k.kernel << ": every attention law but accuracy";
  }
}

TEST(AttentionKernelsAudit, OsvsOwnKernelsAreWithinTheirContracts) {
  const AttentionKernelsAudit& a = registry_audit();
  for (const char* name : {"osvs.attention.tiled_host", "osvs.attention.tiled_host_fp8",
                           "osvs.attention.split_decode.cpu_model"}) {
    const AttentionKernelAccuracy* k = find(a, name);
    ASSERT_NE(k, nullptr) << name << " is not in the registry of the test program";
    EXPECT_LE(k->tightness.max, 1.0) << name;
    EXPECT_EQ(k->over_contract, 0) << name;
    EXPECT_EQ(k->failed_cases, 0) << name << ": " << k->first_failed_case;
    for (const LawOutcome& l : k->laws) {
      EXPECT_FALSE(l.breaks_gate()) << name << " " << l.law << ": " << l.detail;
      if (!l.not_run()) EXPECT_GT(l.cases, 0) << name << " " << l.law;
    }
    EXPECT_TRUE(k->passes()) << name;
  }
}

TEST(AttentionKernelsAudit, AKernelOutsideItsContractFailsTheGate) {
  const AttentionKernelAccuracy* k = find(registry_audit(), "test.attention.one_percent_off");
  ASSERT_NE(k, nullptr);
  EXPECT_GT(k->over_contract, 0);
  EXPECT_GT(k->tightness.max, 1.0);
  ASSERT_FALSE(k->worst.empty());
  EXPECT_GT(k->worst.front().tightness, 1.0);
  // 1 % of an f32 o is about 2^17 ulp of it, and M >= |o|.
  EXPECT_GT(k->o_ulps.max, 1000.0);
  EXPECT_FALSE(k->passes());
  EXPECT_FALSE(registry_audit().passes());
  AuditReport r;
  r.attention.not_run = "--no-attention";  // only the kernels' section decides
  r.attention_kernels.kernels = {*k};
  EXPECT_FALSE(release_passes(r));
}

TEST(AttentionKernelsAudit, ALawFailsTheGateUnlessDeclaredAKnownDefect) {
  const AttentionKernelAccuracy* plain = find(registry_audit(), "test.attention.empty_lse");
  const AttentionKernelAccuracy* declared =
      find(registry_audit(), "test.attention.empty_lse_declared");
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(declared, nullptr);
  for (const AttentionKernelAccuracy* k : {plain, declared}) {
    EXPECT_EQ(k->over_contract, 0) << k->kernel << ": the rows measured are the tiled kernel's";
    for (const LawOutcome& l : k->laws)
      if (l.law == "empty_rows")  // (a case with sinks has none: its empty rows' lse is the sink)
        EXPECT_EQ(l.status, k == plain ? "fails" : "known defect shown") << k->kernel;
      else
        EXPECT_FALSE(l.breaks_gate()) << k->kernel << " " << l.law << ": " << l.detail;
  }
  EXPECT_FALSE(plain->passes());
  EXPECT_TRUE(declared->passes());
  AuditReport r;
  r.attention.not_run = "--no-attention";
  r.attention_kernels.kernels = {*declared};
  EXPECT_TRUE(release_passes(r));
  r.attention_kernels.kernels.push_back(*plain);
  EXPECT_FALSE(release_passes(r));
}

TEST(AttentionKernelsAudit, ADeviceKernelIsNotRunOnTheCpuExecutor) {
  const AttentionKernel device =
      AttentionKernel("test.attention.device", Where::Device).run(one_percent_off);
  const AttentionKernelsAudit a = audit_attention_kernels({device}, small());
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_NE(a.kernels[0].not_run.find("no device"), std::string::npos) << a.kernels[0].not_run;
  EXPECT_EQ(a.kernels[0].o_elements, 0);
  EXPECT_TRUE(a.passes()) << "a kernel not run is reported, and does not fail the gate";
}

TEST(AttentionKernelsAudit, QuantilesAreNearestRank) {
  const Quantiles q = quantiles_of({3, 1, 2, NAN});
  EXPECT_EQ(q.count, 4);
  EXPECT_EQ(q.p50, 2);         // ceil(0.5 * 4) = 2nd smallest
  EXPECT_EQ(q.p99, INFINITY);  // the NaN counts as +inf
  EXPECT_EQ(q.max, INFINITY);
  const Quantiles one = quantiles_of({0.25});
  EXPECT_EQ(one.p50, 0.25);
  EXPECT_EQ(one.p99_9, 0.25);
  EXPECT_EQ(quantiles_of({}).count, 0);
}

TEST(AttentionKernelsAudit, TheCertificateShowsEachInvarianceWithWhatItAsks) {
  const std::vector<KernelAudit> certified = certified_kernels(registry_audit());
  const auto find_certified = [&](const std::string& name) -> const KernelAudit* {
    for (const KernelAudit& k : certified)
      if (k.kernel == name) return &k;
    return nullptr;
  };
  const KernelAudit* tiled = find_certified("osvs.attention.tiled_host");
  ASSERT_NE(tiled, nullptr);
  EXPECT_TRUE(certificate_passes(*tiled));
  std::set<std::string> invariances;
  for (const LawOutcome& l : invariances_of(*tiled)) {
    invariances.insert(l.law);
    EXPECT_TRUE(l.asks == "bitwise" || l.asks == "contract") << l.law;
    if (l.status == "holds") EXPECT_GT(l.shape_classes, 0) << l.law;
  }
  for (const char* law : {"determinism", "batch_invariance", "page_layout", "chunked_prefill",
                          "prefill_decode", "split_invariance"})
    EXPECT_EQ(invariances.count(law), 1u) << law << " is an invariance of the attention kind";
  EXPECT_EQ(invariances.count("accuracy"), 0u) << "a law of one call";

  const KernelAudit* off = find_certified("test.attention.second_launch_off");
  ASSERT_NE(off, nullptr);
  EXPECT_FALSE(certificate_passes(*off));
  bool determinism_seen = false;
  for (const LawOutcome& l : invariances_of(*off))
    if (l.law == "determinism") {
      determinism_seen = true;
      EXPECT_EQ(l.status, "fails");
      EXPECT_EQ(l.asks, "bitwise");
      EXPECT_FALSE(l.minimal_case.empty()) << "a failing invariance is shrunk to a case";
    }
  EXPECT_TRUE(determinism_seen);
  const std::string json = certificate_json(certified, "test");
  EXPECT_NE(json.find("\"osvs_determinism_certificate\": 1"), std::string::npos);
  EXPECT_NE(json.find("test.attention.second_launch_off"), std::string::npos);
}

}  // namespace
}  // namespace osvs::audit
