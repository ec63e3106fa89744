// The report: JSON round trip, goals, the gate as the report shows it.
#include <gtest/gtest.h>

#include <stdexcept>

#include "osvs/mutation/report.h"

namespace osvs::mutation {
namespace {

MutantResult result(std::string name, MutantStatus s, int cases = 0, bool combine = false,
                    std::int64_t shrunk = -1) {
  MutantResult r;
  r.mutant = std::move(name);
  r.bug = "a bug";
  r.status = s;
  r.combine_level = combine;
  if (s == MutantStatus::Killed) r.killed_by = "accuracy";
  r.cases_to_kill = cases;
  r.cases_total = cases + 3;
  r.laws_tried = 2;
  r.shrunk_size = shrunk;
  r.shrunk_unit = shrunk >= 0 ? "states" : "";
  r.seconds = 0.25;
  r.reason = "because | of\nthis";
  return r;
}

MutationReport sample() {
  MutationReport rep;
  rep.provenance = {"2025-01-01T00:00:00Z", "abc", "cpu", "CPU model", "", 100, "seed=1"};
  rep.results = {result("a", MutantStatus::Killed, 5, true, 2),
                 result("b", MutantStatus::Killed, 40, false, 17),
                 result("c", MutantStatus::Skipped), result("d", MutantStatus::Survived)};
  return rep;
}

TEST(Report, JsonRoundTrip) {
  const MutationReport rep = sample();
  const MutationReport back = parse_report(to_json_text(rep), "mem");
  ASSERT_EQ(back.results.size(), rep.results.size());
  EXPECT_EQ(back.provenance.commit, "abc");
  EXPECT_EQ(back.provenance.budget, 100);
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    EXPECT_EQ(back.results[i].mutant, rep.results[i].mutant);
    EXPECT_EQ(back.results[i].status, rep.results[i].status);
    EXPECT_EQ(back.results[i].cases_to_kill, rep.results[i].cases_to_kill);
    EXPECT_EQ(back.results[i].shrunk_size, rep.results[i].shrunk_size);
    EXPECT_EQ(back.results[i].reason, rep.results[i].reason);
  }
  EXPECT_EQ(to_json_text(back), to_json_text(rep));
}

TEST(Report, MalformedBaselineIsNamed) {
  try {
    parse_report("{\"schema\": \"osvs-mutation-1\"}", "base.json");
    FAIL() << "a report without provenance was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("base.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_report("not json", "x"), std::runtime_error);
}

TEST(Goals, SkippedExcludedMedianOverKills) {
  const Goals g = goals_of(sample().results);
  EXPECT_EQ(g.ran, 3);  // a, b, d; c was not run
  EXPECT_EQ(g.killed, 2);
  EXPECT_FALSE(g.all_killed());
  ASSERT_TRUE(g.median_cases_to_kill.has_value());
  EXPECT_EQ(*g.median_cases_to_kill, (5 + 40) / 2.0);  // even count: mean of the middle two
  ASSERT_TRUE(g.max_combine_shrunk.has_value());
  EXPECT_EQ(*g.max_combine_shrunk, 2);  // b's 17 is kernel-level
  EXPECT_TRUE(g.shrunk_ok());
}

TEST(Markdown, TableHasOneRowPerMutantAndTheGoals) {
  const std::string md = to_markdown(sample());
  for (const char* name : {"| a |", "| b |", "| c |", "| d |"})
    EXPECT_NE(md.find(name), std::string::npos) << name;
  EXPECT_NE(md.find("killed: 2 of 3"), std::string::npos) << md;
  EXPECT_EQ(md.find("because | of"), std::string::npos) << "a '|' broke out of its cell";
  EXPECT_NE(md.find("| c | kernel | not run |"), std::string::npos) << md;
}

TEST(Markdown, GateFailsNamingEachCatalogueMutantNotKilled) {
  MutationReport rep = sample();  // a, b, c, d: none of them is in the catalogue
  rep.excuse_not_run = true;
  const std::string md = to_markdown(rep);
  EXPECT_NE(md.find("## Gate: FAIL"), std::string::npos) << md;
  for (const std::string& name : catalogue_names())
    EXPECT_NE(md.find("FAILS: " + name + ":"), std::string::npos) << name << "\n" << md;
}

TEST(Json, GateIsWrittenAndItsSettingReadBack) {
  MutationReport rep = sample();
  rep.excuse_not_run = true;
  const std::string text = to_json_text(rep);
  EXPECT_NE(text.find("\"every_mutant_killed\": false"), std::string::npos) << text;
  EXPECT_TRUE(parse_report(text, "mem").excuse_not_run);
  rep.excuse_not_run = false;
  EXPECT_FALSE(parse_report(to_json_text(rep), "mem").excuse_not_run);
}

}  // namespace
}  // namespace osvs::mutation
