// Regression files of row kernels: a shrunk failing RowCase saved as values (hex floats), with
// the kernel's name, the law, what replaying must show and where it was found. One JSON file per
// case, named by a hash of its content, so the same case is written once:
//   <root>/<kernel>/<law>-<id>.json
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "osvs/api/row_laws.h"

namespace osvs {

struct RowRegression {
  std::string kernel;        ///< registered name
  std::string law;           ///< row_laws() name
  bool expect_holds = true;  ///< false: a documented defect, the law must still fail
  std::string note;          ///< why this expectation
  std::string found;         ///< provenance: date, commit, where the kernel ran, found by
  std::string explanation;   ///< the verdict when found
  RowCase input;
};

/// JSON text of a record (floats as hex floats, exact).
std::string to_json(const RowRegression& r);

/// Parses a record; throws std::runtime_error naming the field for a malformed file.
RowRegression row_regression_from_json(const std::string& text);

/// Writes r under root/<kernel>/<law>-<id>.json unless that file exists; returns the path.
std::filesystem::path write_row_regression(const RowRegression& r,
                                           const std::filesystem::path& root);

/// Reads every *.json under root/<kernel>/ (sorted by name); empty when the folder is absent.
std::vector<std::pair<std::filesystem::path, RowRegression>> read_row_regressions(
    const std::filesystem::path& root, const std::string& kernel);

/// Replays a record on k: "" when it shows what it expects, else why not.
std::string replay_row_regression(const RowKernel& k, const RowRegression& r);

/// "<UTC date>, osvs <commit>, <found_by>": the provenance line of a new record.
std::string row_provenance(const std::string& found_by);

}  // namespace osvs
