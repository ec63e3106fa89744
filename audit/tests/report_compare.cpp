// osvs_audit_report_compare A B: compares the reports of two audit output folders (audit.md,
// summary.json, audit.json and worst_cases.json, gzipped or not) with their wall-clock values
// masked. Exit 0 when identical, 1 naming the first difference of each file that differs, 2 on
// a usage or read error.
#include <exception>

#include <fmt/format.h>

#include "osvs/audit/report_files.h"
#include "osvs/audit/report_mask.h"

int main(int argc, char** argv) {
  using namespace osvs::audit;
  if (argc != 3) {
    fmt::print(stderr, "usage: osvs_audit_report_compare DIR_A DIR_B\n");
    return 2;
  }
  int status = 0;
  try {
    for (const char* name : {"audit.md", "summary.json", "audit.json", "worst_cases.json"}) {
      const auto masked = [&](const char* dir) {
        const std::string text = read_detail_file(dir, name);
        return std::string(name) == "audit.md" ? mask_timing_markdown(text)
                                               : mask_timing_json(text);
      };
      if (const auto diff = first_difference(masked(argv[1]), masked(argv[2]))) {
        fmt::print("{} differs, {}\n", name, *diff);
        status = 1;
      } else {
        fmt::print("{}: identical (timing masked)\n", name);
      }
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "osvs_audit_report_compare: {}\n", e.what());
    return 2;
  }
  return status;
}
