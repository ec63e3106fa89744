// The measurement on a strided subset: the host exps inside their declared accuracy, a planted
// defect found with its input, and the recorded worst inputs re-measured on this machine's libm.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "osvs/exhaustive/measurement.h"
#include "osvs/exhaustive/report.h"
#include "osvs/kernels/exp_figures.h"
#include "osvs/kernels/hd.h"
#include "osvs/testing/source_file.h"

namespace osvs::exhaustive {
namespace {

std::vector<ExpUnderTest> host_exps() {
  std::vector<ExpUnderTest> out;
  for (const ExpUnderTest& e : exps_under_test())
    if (e.side == Side::Host) out.push_back(e);
  return out;
}

MeasureSettings strided(std::uint64_t stride) {
  MeasureSettings s;
  s.range.stride = stride;
  return s;
}

TEST(Measurement, HostExpsWithinTheirDeclaredAccuracyOnAStride) {
  const MeasureSettings settings = strided(4099);
  for (const ExpMeasurement& m : measure(host_exps(), settings)) {
    EXPECT_EQ(m.inputs, settings.range.count()) << m.exp.name;
    EXPECT_EQ(m.violations, 0u) << counterexample(m);
    EXPECT_LE(m.needed_max_ulp, m.exp.declared.max_ulp) << counterexample(m);
    EXPECT_GT(m.worst_normal.ulp, 0.5) << m.exp.name << ": no inexact result seen";
    ASSERT_FALSE(m.worst.empty());
    // The worst inputs are recomputed in MPFR; the maxima come from the fast path (2^-15 ulp).
    EXPECT_NEAR(m.worst.front().ulp, std::max(m.worst_normal.ulp, m.worst_subnormal.ulp), 0x1p-15)
        << m.exp.name;
  }
}

float next_up_of_correct(float x) {
  return std::nextafter(exact_exp(x, ExpBase::E).rounded, INFINITY);
}

/// An exp one float above the correct rounding is between 0.5 and 1.5 ulp off wherever the result
/// is finite and normal: declared at 0.5 ulp, every such input is a counterexample.
TEST(Measurement, APlantedDefectIsFoundWithItsInput) {
  ExpUnderTest wrong = exps_under_test().front();
  wrong.name = "next_up";
  wrong.host = next_up_of_correct;
  wrong.declared.max_ulp = 0.5;
  MeasureSettings settings = strided(1);
  settings.range.first = float_bits(1.0f);  // 2^14 inputs from 1: results near e, all normal
  settings.range.end = settings.range.first + (1u << 14);
  const ExpMeasurement m = measure({wrong}, settings).front();
  EXPECT_EQ(m.violations, m.inputs);
  EXPECT_GT(m.worst_violation.ulp, 0.5);
  EXPECT_LT(m.worst_violation.ulp, 1.5);
  EXPECT_NE(counterexample(m).find("next_up(0x1."), std::string::npos) << counterexample(m);
}

/// The committed measurement's worst input of each host exp, re-evaluated here: the same output
/// (else this libm is not the one measured, and the figure must be measured again here) within
/// the declared accuracy.
TEST(Measurement, RecordedWorstInputsReproduceOnThisLibm) {
  const auto verified_json = osvs::testing::source_file("reports/exp/verified.json");
  std::ifstream in(verified_json);
  ASSERT_TRUE(in) << "cannot read " << verified_json;
  const nlohmann::json verified = nlohmann::json::parse(in);
  int checked = 0;
  for (const auto& f : verified.at("figures")) {
    const ExpUnderTest& e = find_exp(f.at("name").get<std::string>());
    if (e.side != Side::Host) continue;
    const std::string cex = f.at("counterexample").get<std::string>();
    const std::string x_text = cex.substr(e.name.size() + 1, cex.find(')') - e.name.size() - 1);
    const std::string out_text =
        cex.substr(cex.find(" = ") + 3, cex.find(',') - cex.find(" = ") - 3);
    const float x = std::strtof(x_text.c_str(), nullptr);
    const float recorded = std::strtof(out_text.c_str(), nullptr);
    const float now = e.host(x);
    EXPECT_EQ(float_bits(now), float_bits(recorded))
        << e.name << "(" << x_text << ") differs from the measurement ("
        << verified.at("provenance").at("libc") << "): measure this libm on every input";
    EXPECT_LE(ulp_distance(now, exact_exp(x, e.base)), f.at("declared").at("max_ulp").get<double>())
        << cex;
    ++checked;
  }
  EXPECT_EQ(checked, 3) << "glibc_expf, glibc_exp2f and portable_expf_host are measured";
}

/// The figures the build checked are those of the committed measurement, and say where they hold.
TEST(Measurement, TheBuildReadTheCommittedFigures) {
  const auto verified_json = osvs::testing::source_file("reports/exp/verified.json");
  std::ifstream in(verified_json);
  ASSERT_TRUE(in);
  const nlohmann::json provenance = nlohmann::json::parse(in).at("provenance");
  const std::string hold_for = exp_figures_hold_for();
  for (const char* field : {"device", "nvcc", "libc", "date", "commit"})
    EXPECT_NE(hold_for.find(provenance.at(field).get<std::string>()), std::string::npos)
        << field << " of " << verified_json << " missing from: " << hold_for;
}

}  // namespace
}  // namespace osvs::exhaustive
