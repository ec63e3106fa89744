// The determinism certificate from audited kernels: it lists each kernel's invariances (the laws
// with something to ask: bits or the contract) and no other law, and passes only when none fails
// and every declared known defect still shows; a kernel the audit could not run is not certified.
#include "osvs/audit/determinism_certificate.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace osvs::audit {
namespace {

LawOutcome invariance(const char* law, const char* asks, const char* status) {
  return {
      .law = law, .status = status, .detail = "d", .asks = asks, .cases = 5, .shape_classes = 3};
}

KernelAudit audited(const char* name, std::vector<LawOutcome> laws) {
  KernelAudit a;
  a.kind = "attention";
  a.kernel = name;
  a.status = "passes";
  a.laws = std::move(laws);
  return a;
}

nlohmann::json certificate_of(const std::vector<KernelAudit>& audits) {
  return nlohmann::json::parse(certificate_json(audits, "provenance line"));
}

TEST(DeterminismCertificate, ListsTheInvariancesAndNothingElse) {
  const KernelAudit a = audited("k", {{.law = "accuracy", .status = "fails", .detail = "off"},
                                      invariance("batch_invariance", "bitwise", "holds"),
                                      invariance("chunked_prefill", "contract", "holds")});
  const nlohmann::json c = certificate_of({a});
  EXPECT_EQ(c.at("osvs_determinism_certificate"), 1);
  ASSERT_EQ(c.at("kernels").size(), 1u);
  const nlohmann::json& laws = c.at("kernels")[0].at("invariances");
  ASSERT_EQ(laws.size(), 2u);  // accuracy is a law of one call: the audit's gate, not this one
  EXPECT_EQ(laws[0].at("law"), "batch_invariance");
  EXPECT_EQ(laws[0].at("asks"), "bitwise");
  EXPECT_EQ(laws[1].at("asks"), "contract");
  EXPECT_EQ(laws[1].at("shape_classes"), 3);
  EXPECT_TRUE(c.at("passes"));
  EXPECT_NE(certificate_markdown({a}).find("holds within contract"), std::string::npos);
}

TEST(DeterminismCertificate, AFailingInvarianceOrAMissingKnownDefectFailsIt) {
  KernelAudit failing = audited("f", {invariance("determinism", "bitwise", "fails")});
  failing.laws[0].minimal_case = "1 sequence (q x k: 1x2)";
  const KernelAudit shown =
      audited("s", {invariance("determinism", "bitwise", "known defect shown")});
  const KernelAudit missing =
      audited("m", {invariance("determinism", "bitwise", "known defect missing")});
  EXPECT_FALSE(certificate_passes(failing));
  EXPECT_TRUE(certificate_passes(shown));
  EXPECT_FALSE(certificate_passes(missing));
  const nlohmann::json c = certificate_of({shown, failing});
  EXPECT_FALSE(c.at("passes"));
  EXPECT_EQ(c.at("kernels")[1].at("invariances")[0].at("minimal_case"), "1 sequence (q x k: 1x2)");
  EXPECT_NE(certificate_markdown({failing}).find("**not certified**"), std::string::npos);
}

TEST(DeterminismCertificate, AKernelTheAuditCouldNotRunIsNotCertified) {
  KernelAudit none = audited("gpu", {});
  none.status = "unavailable";
  none.error = "no device";
  const nlohmann::json c = certificate_of({none});
  ASSERT_EQ(c.at("kernels").size(), 1u);
  EXPECT_FALSE(c.at("kernels")[0].at("passes"));
  EXPECT_FALSE(c.at("passes"));
  // a kind without invariances that ran has nothing to certify
  EXPECT_TRUE(certificate_of({audited("row", {{.law = "accuracy", .status = "holds"}})})
                  .at("kernels")
                  .empty());
}

}  // namespace
}  // namespace osvs::audit
