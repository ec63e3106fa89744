// Regression files of merge kernels: a shrunk failing MergeCase saved as values (hex floats),
// with the kernel's name, the law, what replaying must show and where it was found. One JSON
// file per case, named by a hash of its content:
//   <root>/<kernel>/<law>-<id>.json        ("osvs_merge_regression": 1)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "osvs/api/merge_laws.h"

namespace osvs {

struct MergeRegression {
  std::string kernel;        ///< registered name
  std::string law;           ///< merge_laws() name
  bool expect_holds = true;  ///< false: a documented defect, the law must still fail
  std::string note;          ///< why this expectation
  std::string found;         ///< provenance: date, commit, where the kernel ran, found by
  std::string explanation;   ///< the verdict when found
  MergeCase input;
};

std::string to_json(const MergeRegression& r);

/// Parses a record; throws std::runtime_error naming the field for a malformed file.
MergeRegression merge_regression_from_json(const std::string& text);

/// Whether `text` is a merge regression file (the other kinds are row and combine files).
bool is_merge_regression(const std::string& text);

/// Writes r under root/<kernel>/<law>-<id>.json unless that file exists; returns the path.
std::filesystem::path write_merge_regression(const MergeRegression& r,
                                             const std::filesystem::path& root);

/// Every merge record under root/<kernel>/ (sorted by name); empty when the folder is absent.
std::vector<std::pair<std::filesystem::path, MergeRegression>> read_merge_regressions(
    const std::filesystem::path& root, const std::string& kernel);

/// Replays a record on k: "" when it shows what it expects, else why not.
std::string replay_merge_regression(const MergeKernel& k, const MergeRegression& r);

}  // namespace osvs
