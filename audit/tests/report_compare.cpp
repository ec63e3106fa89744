// osvs_audit_report_compare [--sweep] A B: compares the reports of two audit output folders
// (audit.md, summary.json, audit.json and worst_cases.json, gzipped or not) with their wall-clock
// values masked. With --sweep only the sweep's results are compared: audit.json's "configs" and
// "not_run" (a merged audit's against the whole run's, whose targeted searches differ by design).
// Exit 0 when identical, 1 naming the first difference of each file that differs, 2 on a usage or
// read error.
#include <exception>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "osvs/audit/report_files.h"
#include "osvs/audit/report_mask.h"

namespace {

using namespace osvs::audit;

int compare(const char* name, const std::string& a, const std::string& b) {
  if (const auto diff = first_difference(a, b)) {
    fmt::print("{} differs, {}\n", name, *diff);
    return 1;
  }
  fmt::print("{}: identical (timing masked)\n", name);
  return 0;
}

/// audit.json's sweep, masked.
std::string sweep_of(const char* dir) {
  const auto doc = nlohmann::ordered_json::parse(read_detail_file(dir, "audit.json"));
  const nlohmann::ordered_json sweep = {{"configs", doc.at("configs")},
                                        {"not_run", doc.at("summary").at("configs_not_run")}};
  return mask_timing_json(sweep.dump(1));
}

}  // namespace

int main(int argc, char** argv) {
  const bool sweep_only = argc == 4 && std::string(argv[1]) == "--sweep";
  if (argc != 3 && !sweep_only) {
    fmt::print(stderr, "usage: osvs_audit_report_compare [--sweep] DIR_A DIR_B\n");
    return 2;
  }
  const char* a = argv[argc - 2];
  const char* b = argv[argc - 1];
  int status = 0;
  try {
    if (sweep_only) return compare("the sweep of audit.json", sweep_of(a), sweep_of(b));
    for (const char* name : {"audit.md", "summary.json", "audit.json", "worst_cases.json"}) {
      const auto masked = [&](const char* dir) {
        const std::string text = read_detail_file(dir, name);
        return std::string(name) == "audit.md" ? mask_timing_markdown(text)
                                               : mask_timing_json(text);
      };
      status |= compare(name, masked(a), masked(b));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "osvs_audit_report_compare: {}\n", e.what());
    return 2;
  }
  return status;
}
