// JSON form of the mutation report; the reader is strict so that a damaged baseline is named, not
// silently taken as "nothing was killed".
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "osvs/mutation/report.h"

namespace osvs::mutation {
namespace {

using json = nlohmann::ordered_json;

json to_json(const MutantResult& r) {
  return {{"mutant", r.mutant},
          {"bug", r.bug},
          {"combine_level", r.combine_level},
          {"status", to_string(r.status)},
          {"killed_by", r.killed_by},
          {"cases_to_kill", r.cases_to_kill},
          {"cases_total", r.cases_total},
          {"laws_tried", r.laws_tried},
          {"shrunk_size", r.shrunk_size},
          {"shrunk_unit", r.shrunk_unit},
          {"regression_file", r.regression_file},
          {"seconds", r.seconds},
          {"reason", r.reason}};
}

MutantResult result_from(const json& j) {
  MutantResult r;
  r.mutant = j.at("mutant").get<std::string>();
  r.bug = j.at("bug").get<std::string>();
  r.combine_level = j.at("combine_level").get<bool>();
  r.status = parse_status(j.at("status").get<std::string>());
  r.killed_by = j.at("killed_by").get<std::string>();
  r.cases_to_kill = j.at("cases_to_kill").get<int>();
  r.cases_total = j.at("cases_total").get<int>();
  r.laws_tried = j.at("laws_tried").get<int>();
  r.shrunk_size = j.at("shrunk_size").get<std::int64_t>();
  r.shrunk_unit = j.at("shrunk_unit").get<std::string>();
  r.regression_file = j.at("regression_file").get<std::string>();
  r.seconds = j.at("seconds").get<double>();
  r.reason = j.at("reason").get<std::string>();
  return r;
}

json to_json(const GateOutcome& g, bool excuse_not_run) {
  return {{"every_mutant_killed", g.passed()},
          {"excuse_not_run", excuse_not_run},
          {"not_run", g.not_run},
          {"failures", g.failures}};
}

json to_json(const Goals& g) {
  json j = {{"ran", g.ran}, {"killed", g.killed}, {"all_killed", g.all_killed()}};
  j["median_cases_to_kill"] = g.median_cases_to_kill ? json(*g.median_cases_to_kill) : json();
  j["max_combine_shrunk_size"] = g.max_combine_shrunk ? json(*g.max_combine_shrunk) : json();
  j["median_ok"] = g.median_ok();
  j["shrunk_ok"] = g.shrunk_ok();
  return j;
}

}  // namespace

std::string to_json_text(const MutationReport& report) {
  const ReportProvenance& p = report.provenance;
  json results = json::array();
  for (const MutantResult& r : report.results) results.push_back(to_json(r));
  const json doc = {{"schema", "osvs-mutation-1"},
                    {"provenance",
                     {{"date", p.date},
                      {"commit", p.commit},
                      {"executor", p.executor},
                      {"device", p.device},
                      {"nvcc", p.nvcc},
                      {"budget", p.budget},
                      {"seed", p.seed}}},
                    {"goals", to_json(goals_of(report.results))},
                    {"gate", to_json(gate_of(report), report.excuse_not_run)},
                    {"results", results}};
  return doc.dump(2) + "\n";
}

MutationReport parse_report(const std::string& text, const std::string& file) {
  try {
    const json doc = json::parse(text);
    if (doc.at("schema").get<std::string>() != "osvs-mutation-1")
      throw std::runtime_error("unknown schema " + doc.at("schema").dump());
    MutationReport r;
    const json& p = doc.at("provenance");
    r.provenance = {p.at("date").get<std::string>(),     p.at("commit").get<std::string>(),
                    p.at("executor").get<std::string>(), p.at("device").get<std::string>(),
                    p.at("nvcc").get<std::string>(),     p.at("budget").get<int>(),
                    p.at("seed").get<std::string>()};
    for (const json& j : doc.at("results")) r.results.push_back(result_from(j));
    r.excuse_not_run = doc.at("gate").at("excuse_not_run").get<bool>();
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(file + ": not a mutation report: " + e.what());
  }
}

void write_report(const MutationReport& report, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  for (const auto& [name, text] : {std::pair{"mutation.json", to_json_text(report)},
                                   std::pair{"mutation.md", to_markdown(report)}}) {
    std::ofstream out(dir / name, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + (dir / name).string());
  }
}

MutationReport read_report(const std::filesystem::path& json_file) {
  std::ifstream in(json_file, std::ios::binary);
  if (!in) throw std::runtime_error(json_file.string() + ": cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_report(text.str(), json_file.string());
}

}  // namespace osvs::mutation
