#include "regression_sink.h"

#include <cstdlib>

#include "osvs/build_stamp.h"

#if OSVS_HAVE_CASE_IO
#include "osvs/replay/regression.h"
#endif

namespace osvs::test {

std::filesystem::path regression_sink_root() {
  if (const char* dir = std::getenv("OSVS_REGRESSION_DIR"); dir && *dir) return dir;
  if (const char* build = std::getenv("OSVS_BUILD_DIR"); build && *build)
    return std::filesystem::path(build) / "regressions";
  return std::filesystem::path("osvs-reports") / "regressions";
}

std::string save_regression(const std::string& property, const Case& input, const Verdict& verdict,
                            bool defect, const std::string& note, Executor& ex) {
#if OSVS_HAVE_CASE_IO
  RegressionRecord r;
  r.property = property;
  r.input = input;
  r.verdict = verdict;
  r.expectation = defect ? Expectation::Violates : Expectation::Holds;
  r.needs_gpu = ex.is_gpu();
  r.provenance.osvs_commit = build_commit();
  r.provenance.date = utc_now_iso8601();
  r.provenance.executor = ex.name();
  r.provenance.device = ex.describe();
  r.provenance.found_by = "rapidcheck";
  if (const char* p = std::getenv("RC_PARAMS")) r.provenance.rc_seed = p;
  r.note = note;
  return write_regression(r, regression_sink_root()).string();
#else
  (void)property, (void)input, (void)verdict, (void)defect, (void)note, (void)ex;
  return "";
#endif
}

}  // namespace osvs::test
