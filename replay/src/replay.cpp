// Replay: expectation against verdict, one file at a time, errors contained per file.
#include "osvs/replay/replay.h"

#include <algorithm>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "osvs/properties/check_case.h"
#include "osvs/replay/case_io.h"

namespace osvs {
namespace {

ReplayOutcome outcome(const std::filesystem::path& file, ReplayStatus status, std::string message) {
  ReplayOutcome o;
  o.file = file;
  o.status = status;
  o.message = std::move(message);
  return o;
}

/// "executor/exp" from an executor name and its description (Executor::describe(), which names
/// the exp in force: "CUDA expf", "glibc expf" or "portable exp").
std::string arithmetic_of(const std::string& executor, const std::string& description) {
  for (const char* exp : {"portable exp", "CUDA expf", "glibc expf"})
    if (description.find(exp) != std::string::npos) return executor + " with " + exp;
  return executor;
}

}  // namespace

const char* to_string(ReplayStatus s) {
  static constexpr EnumName<ReplayStatus> kNames[] = {{ReplayStatus::Met, "met"},
                                                      {ReplayStatus::Stale, "STALE"},
                                                      {ReplayStatus::Regressed, "REGRESSED"},
                                                      {ReplayStatus::Skipped, "skipped"},
                                                      {ReplayStatus::Error, "ERROR"}};
  return name_in(kNames, s, "ERROR");
}

bool acceptable(const ReplayOutcome& o) {
  return o.status == ReplayStatus::Met || o.status == ReplayStatus::Skipped;
}

ReplayOutcome replay_record(const RegressionRecord& r, const std::filesystem::path& file,
                            Executor& executor, const PropertyLookup& lookup) {
  ReplayOutcome o = outcome(file, ReplayStatus::Error, "");
  o.record = r;
  if (r.needs_gpu && !executor.is_gpu()) {
    o.status = ReplayStatus::Skipped;
    o.message = std::string("needs a GPU; the ") + executor.name() + " executor is not one";
    return o;
  }
  // A documented defect is a fact about the arithmetic it was found with: which pairs expose the
  // seed's FMA asymmetry depends on the exact bits of the exp (CUDA expf, glibc expf or the
  // portable exp), so it is replayed on that executor with that exp only. A fixed bug (Holds)
  // must stay fixed everywhere.
  // A counterexample that depends on no exp value beyond the facts every exp satisfies
  // (Provenance::any_exp, set by formal/) is a fact about every executor.
  if (r.expectation == Expectation::Violates && !r.provenance.any_exp) {
    const std::string found_with = arithmetic_of(r.provenance.executor, r.provenance.device);
    const std::string here = arithmetic_of(executor.name(), executor.describe());
    if (!r.provenance.executor.empty() && found_with != here) {
      o.status = ReplayStatus::Skipped;
      o.message =
          "a documented defect found with " + found_with + "; replayed there, not with " + here;
      return o;
    }
  }
  const PropertyInfo* property = lookup(r.property);
  if (property == nullptr) {
    o.message = file.string() + ": property: \"" + r.property + "\" is not a registered property";
    return o;
  }
  try {
    o.verdict = check_case(*property, r.input, executor);
  } catch (const std::exception& e) {
    o.message = file.string() + ": property \"" + r.property + "\" threw: " + e.what();
    return o;
  }
  if (!o.verdict->judged()) {  // vacuous or not run here: neither met nor regressed
    o.status = ReplayStatus::Skipped;
    o.message = std::string("the law was ") + to_string(o.verdict->status) +
                " here: " + o.verdict->explanation;
    return o;
  }
  const bool holds = o.verdict->holds();
  if (r.expectation == Expectation::Holds) {
    o.status = holds ? ReplayStatus::Met : ReplayStatus::Regressed;
    if (!holds) o.message = "expected the property to hold (a fixed bug), but it fails again";
  } else {
    o.status = holds ? ReplayStatus::Stale : ReplayStatus::Met;
    if (holds)
      o.message =
          "expected the property to fail (a documented defect), but it holds: the file is stale "
          "(the defect was fixed or the executor differs); update its expectation or remove it";
  }
  return o;
}

namespace {

/// The public API's regression files (of every kind: row, merge, attention and reduction kernels,
/// api/README.md) live beside the suite's; they name a registered kernel and are replayed by that
/// kernel's testbed program. Each carries its kind's format key, "osvs_<kind>_regression"
/// (api/src/regression.cpp), which a suite record never has: the key, or "" for a suite file.
std::string api_format_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object()) return "";
  constexpr std::string_view prefix = "osvs_", suffix = "_regression";
  for (const auto& [key, value] : j.items())
    if (key.size() > prefix.size() + suffix.size() && key.starts_with(prefix) &&
        key.ends_with(suffix))
      return key;
  return "";
}

}  // namespace

ReplayOutcome replay_file(const std::filesystem::path& file, Executor& executor,
                          const PropertyLookup& lookup) {
  if (const std::string format = api_format_of(file); !format.empty())
    return outcome(
        file, ReplayStatus::Skipped,
        "an " + format + " file: replayed by the testbed program that registers its kernel");
  RegressionRecord r;
  try {
    r = read_regression(file);
  } catch (const RegressionFormatError& e) {
    return outcome(file, ReplayStatus::Error, e.what());
  }
  return replay_record(r, file, executor, lookup);
}

std::vector<std::filesystem::path> regression_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const auto& p = entry.path();
    if (entry.is_regular_file() && p.extension() == ".json" && p.filename().string().front() != '.')
      files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<ReplayOutcome> replay_paths(const std::vector<std::filesystem::path>& paths,
                                        Executor& executor, const PropertyLookup& lookup) {
  std::vector<ReplayOutcome> out;
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      std::vector<std::filesystem::path> files;
      try {
        files = regression_files(path);
      } catch (const std::filesystem::filesystem_error& e) {
        out.push_back(outcome(path, ReplayStatus::Error, e.what()));
        continue;
      }
      for (const auto& f : files) out.push_back(replay_file(f, executor, lookup));
    } else if (std::filesystem::exists(path, ec)) {
      out.push_back(replay_file(path, executor, lookup));
    } else {
      out.push_back(
          outcome(path, ReplayStatus::Error, path.string() + ": no such file or directory"));
    }
  }
  return out;
}

ReplaySummary summarize(const std::vector<ReplayOutcome>& outcomes) {
  // The counter of each status, one row per ReplayStatus.
  static constexpr std::pair<ReplayStatus, int ReplaySummary::*> kCounters[] = {
      {ReplayStatus::Met, &ReplaySummary::met},
      {ReplayStatus::Stale, &ReplaySummary::stale},
      {ReplayStatus::Regressed, &ReplaySummary::regressed},
      {ReplayStatus::Skipped, &ReplaySummary::skipped},
      {ReplayStatus::Error, &ReplaySummary::errors}};
  ReplaySummary s;
  for (const auto& o : outcomes)
    for (const auto& [status, counter] : kCounters)
      if (o.status == status) ++(s.*counter);
  return s;
}

}  // namespace osvs
