// formal.gappa_*: Gappa proves every one-step bound of the oracle's algebra (one_step.h); with any
// one charge of the algebra halved, Gappa fails at least one of them (and fails on a goal, not on
// a script it could not read); Coq checks Gappa's certificate of one script of each step kind.
// Each skips, with the reason, where gappa (or Coq with libcoq-gappa) is not installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "osvs/formal/gappa/one_step.h"
#include "osvs/formal/gappa/suite.h"
#include "osvs/kernels/hex.h"

namespace osvs::formal::gappa {
namespace {

std::string work_dir(const std::string& leaf) {
  const char* build = std::getenv("OSVS_BUILD_DIR");
  const std::filesystem::path root =
      build ? std::filesystem::path(build) : std::filesystem::temp_directory_path();
  return (root / "formal" / "gappa" / leaf).string();
}

/// Gappa's words for a goal it could not prove (its manual's "Proof failures"; any other failure
/// is a script it could not read).
bool failed_on_a_goal(const RunResult& r) {
  for (const char* words : {"some properties were not satisfied",
                            "some enclosures were not satisfied", "no contradiction was found"})
    if (!r.proven && r.output.find(words) != std::string::npos) return true;
  return false;
}

/// "combine_scaled.fma.deep.s1b2.e1" -> "combine_scaled": the step (and whether scaled).
std::string step_of(const std::string& name) {
  return name.substr(0, name.find('.'));
}

TEST(GappaProofs, EveryOneStepBoundIsProven) {
  const std::optional<std::string> gappa = find_gappa();
  if (!gappa) GTEST_SKIP() << "gappa is not installed (scripts/install-deps.sh installs it)";
  const std::vector<Script> scripts = one_step_scripts();
  ASSERT_GT(scripts.size(), 100u);
  double seconds = 0;
  int proven = 0;
  for (const Outcome& o : prove_all(scripts, work_dir("proofs"), *gappa, false)) {
    seconds += o.result.seconds;
    proven += o.result.proven;
    EXPECT_TRUE(o.result.proven) << o.path << "\n" << o.result.output;
  }
  std::cout << proven << " of " << scripts.size() << " one-step bounds proven in "
            << digits9(seconds) << " s (scripts in " << work_dir("proofs") << ")\n";
}

TEST(GappaPlanted, EachHalvedChargeFailsAProof) {
  EXPECT_THROW(one_step_scripts("round"), std::invalid_argument);  // no such charge
  const std::optional<std::string> gappa = find_gappa();
  if (!gappa) GTEST_SKIP() << "gappa is not installed (scripts/install-deps.sh installs it)";
  for (const std::string& charge : charge_names()) {
    const std::vector<Outcome> runs =
        prove_all(one_step_scripts(charge), work_dir("planted_" + charge), *gappa, true);
    ASSERT_FALSE(runs.empty());
    const Outcome& last = runs.back();
    EXPECT_TRUE(failed_on_a_goal(last.result))
        << "halving " << charge << " left every bound proven (or broke a script)\n"
        << last.path << "\n"
        << last.result.output;
    std::cout << charge << " halved: " << last.name << " not proven after " << runs.size()
              << " scripts\n";
  }
}

TEST(GappaCoq, CoqChecksOneCertificateOfEachStep) {
  const std::optional<std::string> gappa = find_gappa();
  if (!gappa) GTEST_SKIP() << "gappa is not installed (scripts/install-deps.sh installs it)";
  const std::optional<std::string> coqc = find_coq_gappa();
  if (!coqc) GTEST_SKIP() << "Coq with Gappa's library is not installed (libcoq-gappa)";
  // per step (exp_term, rescale, rescale_scaled, combine, combine_scaled, output, sum_scaled),
  // its first script at the gap "deep" (results below the normal range, or near it), or its
  // first script where it has none there
  std::set<std::string> steps;
  std::vector<Script> picked;
  const std::vector<Script> scripts = one_step_scripts();
  for (bool deep_only : {true, false})
    for (const Script& s : scripts) {
      if (deep_only && s.name.find(".deep.") == std::string::npos) continue;
      if (steps.insert(step_of(s.name)).second) picked.push_back(s);
    }
  const std::string dir = work_dir("coq");
  const std::vector<std::string> paths = write_scripts(picked, dir);
  for (std::size_t i = 0; i < picked.size(); ++i) {
    const std::string v =
        (std::filesystem::path(dir) / (coq_module(picked[i].name) + ".v")).string();
    const RunResult r = check_with_coq(*gappa, *coqc, paths[i], v);
    EXPECT_TRUE(r.proven) << v << "\n" << r.output;
    std::cout << picked[i].name << ": Coq " << (r.proven ? "checked" : "FAILED") << " in "
              << digits9(r.seconds) << " s\n";
  }
}

}  // namespace
}  // namespace osvs::formal::gappa
