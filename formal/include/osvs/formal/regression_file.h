// A failed proof's counterexample as a replay/ regression file (reports/regressions/README.md),
// so that `osvs replay` runs it on the CPU model and on the GPU: the law's property
// (commutativity, identity_left, identity_right: Law's names are the properties' names), the
// operator's registered combine, the model's states as values, expectation `violates`, and a
// provenance "smt" that names the solver, operator, law, domain and time. The record is replayed
// on an executor before it is written, so no file is written that the executor does not show.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "osvs/formal/law.h"
#include "osvs/kernels/executor.h"
#include "osvs/replay/regression.h"
#include "osvs/replay/replay.h"

namespace osvs::formal {

/// The record of r's counterexample as found on `executor` (its provenance), or nullopt with the
/// reason in *why_not: no counterexample, one the CPU model does not reproduce, an operator that
/// this program's combine registry does not hold (the attention merge, the planted copies of
/// formal/tests), a law no property states (identity_of_identity), or an identity law of an
/// operator whose identity is not the properties' (-inf, 0) (the seed's is (-FLT_MAX, 0)).
/// `verdict` is left empty: the confirming replay fills it.
std::optional<RegressionRecord> counterexample_record(const ProofResult& r,
                                                      const Executor& executor,
                                                      std::string* why_not);

/// True when the counterexample applies exp (or exp2) only at +-0, where every exp gives exactly 1
/// (formal.exp_facts): the violation then depends on no executor's exp (Provenance::any_exp).
bool depends_on_no_exp_value(const Counterexample& c);

struct WrittenCounterexample {
  std::filesystem::path file;  ///< the file written (or already there); empty when none
  bool new_file = false;       ///< false when a file of the same id was there (never overwritten)
  std::string why_not;         ///< why no file: no record (above) or the replay did not confirm
  std::optional<ReplayOutcome> confirmation;  ///< the replay on the executor, when it ran
};

/// Builds the record, replays it on `executor` (the law must fail there, as the file expects) and
/// writes it under root/<property>/<id>.json with replay/'s writer.
WrittenCounterexample write_counterexample(const ProofResult& r, Executor& executor,
                                           const std::filesystem::path& root);

}  // namespace osvs::formal
