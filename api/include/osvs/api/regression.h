// Regression files of every kind of kernel under test (kind.h): a shrunk failing case saved as
// values (hex floats), with the kernel's name, the law, what replaying must show and where it was
// found. One JSON file per case, named by a hash of its content, so the same case is written
// once:
//   <root>/<kernel>/<law>-<id>.json      ({"osvs_<kind>_regression": 1, ...})
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "osvs/api/kind.h"

namespace osvs {

template <class K>
struct Regression {
  std::string kernel;        ///< registered name
  std::string law;           ///< K::laws() name
  bool expect_holds = true;  ///< false: a documented defect, the law must still fail
  std::string note;          ///< why this expectation
  std::string found;         ///< provenance: date, commit, where the kernel ran, found by
  std::string explanation;   ///< the verdict when found
  typename K::Case input;
};

using RowRegression = Regression<RowKind>;
using MergeRegression = Regression<MergeKind>;

/// JSON text of a record (floats as hex floats, exact).
template <class K>
std::string to_json(const Regression<K>& r);

/// Parses a record of kind K; throws std::runtime_error naming the field for a malformed file
/// (one of another kind included).
template <class K>
Regression<K> regression_from_json(const std::string& text);

/// The kind of a regression file's text ("row", "merge", ..., "combine"), or "" when it is none
/// of them (a file of the white-box suite's format, osvs/replay, or no regression file at all).
std::string regression_kind(const std::string& text);

/// Writes r under root/<kernel>/<law>-<id>.json unless that file exists; returns the path.
template <class K>
std::filesystem::path write_regression(const Regression<K>& r, const std::filesystem::path& root);

/// Every record of kind K under root/<kernel>/ (sorted by name); empty when the folder is
/// absent; a file that does not parse throws std::runtime_error naming it.
template <class K>
std::vector<std::pair<std::filesystem::path, Regression<K>>> read_regressions(
    const std::filesystem::path& root, const std::string& kernel);

/// Replays a record on k: "" when it shows what it expects, else why not.
template <class K>
std::string replay_regression(const typename K::Kernel& k, const Regression<K>& r);

/// "<UTC date>, osvs <commit>, <found_by>": the provenance line of a new record.
std::string regression_provenance(const std::string& found_by);

}  // namespace osvs
