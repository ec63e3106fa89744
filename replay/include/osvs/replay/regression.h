// Regression files: a shrunk failing case saved as values (never as a generator seed), replayed
// forever after. One JSON file per case under reports/regressions/<property>/<id>.json, floats as
// hex floats, the id derived from the content so the same case is written once.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/verdict.h"

namespace osvs {

/// What replaying the file must show.
enum class Expectation {
  Holds,     ///< a fixed bug: the property must hold on this case
  Violates,  ///< a documented defect of a kernel under test: the property must still fail
};

struct Provenance {
  std::string osvs_commit;   ///< git commit of the tree that found the case
  std::string date;          ///< ISO 8601 UTC
  std::string executor;      ///< "cpu" or "cuda"
  std::string device;        ///< Executor::describe() (GPU name, driver, runtime, exp)
  std::string nvcc;          ///< nvcc version the kernels were built with ("" for cpu-only)
  std::string rc_reproduce;  ///< RapidCheck's reproduce string, extra information only
  std::string rc_seed;       ///< RapidCheck seed, extra information only
  std::string found_by;      ///< "rapidcheck", "fuzz", "audit", "hand", "smt"
  /// A counterexample of an SMT proof (found_by "smt", formal/): the solver, the operator, the
  /// law, the domain and the solver's time, in words. Written only when not empty.
  std::string solver;
  /// The violation depends on no exp value beyond the facts every exp satisfies (exp(+-0) = 1,
  /// exp(NaN) = NaN; formal.exp_facts checks them on each executor's exp): a `violates` file is
  /// then replayed on every executor, not only with the arithmetic it was found with. Set only by
  /// a finder that knows every exp argument of the case (formal/). Written only when true.
  bool any_exp = false;
};

struct RegressionRecord {
  std::string property;  ///< registry name
  Case input;
  Verdict verdict;  ///< the verdict when found (observed, reference, ulp, bound)
  Expectation expectation = Expectation::Holds;
  bool needs_gpu = false;  ///< replays only on the cuda executor
  Provenance provenance;
  std::string note;  ///< why this expectation (e.g. "seed combine: FMA asymmetry")
};

/// Writes `r` under root/<property>/<id>.json unless a file with the same id exists; returns the
/// path. Never overwrites.
std::filesystem::path write_regression(const RegressionRecord& r,
                                       const std::filesystem::path& root);

/// Content-derived id of a record (hash of property + input).
std::string regression_id(const RegressionRecord& r);

/// The default root: $OSVS_REGRESSION_DIR if set, else $OSVS_SOURCE_DIR/reports/regressions, else
/// <source tree osvs was configured from>/reports/regressions.
std::filesystem::path default_regression_root();

/// Writes `text` to `target` unless a file of that name exists: through a private temporary
/// linked to the name, so concurrent writers of one name (processes or threads) never overwrite
/// each other and no reader sees a partial file. True when this call created the file; throws
/// std::runtime_error / std::system_error when it cannot write.
bool write_file_once(const std::filesystem::path& target, const std::string& text);

/// Provenance of a finding made now on `executor`: commit (as configured), UTC date, executor name
/// and description, nvcc version for GPU results; the RapidCheck fields are left for the caller.
Provenance make_provenance(const Executor& executor, std::string found_by);

}  // namespace osvs
