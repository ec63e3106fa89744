// The black-box laws of a row kernel (no (m, d) state is visible): each is a plain function of
// (kernel, case) returning a Verdict, driven alike by the RapidCheck testbed, the replay of
// regression files and the audit.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "osvs/api/kind_law.h"
#include "osvs/api/row_kernel.h"
#include "osvs/api/runner.h"
#include "osvs/properties/verdict.h"

namespace osvs {

/// The input of every row law; a law reads the fields it needs.
struct RowCase {
  Rows rows;                              ///< a batch of equal-length rows; rows[0] is the subject
  std::vector<std::int64_t> permutation;  ///< a permutation of rows[0]'s indices
  float shift = 0;                        ///< c, exact on rows[0] (every x_j + c exact)
  std::int64_t batch_position = 0;        ///< where rows[0] sits in a batch of batch_rows rows
  std::int64_t batch_rows = 1;
  Layout layout;  ///< row padding of the launch

  /// A case of just these rows (no permutation, no shift, alone, dense).
  static RowCase of(Rows rows) {
    RowCase c;
    c.rows = std::move(rows);
    return c;
  }
};

/// How RapidCheck prints a case: its shape and its first values as hex floats.
void showValue(const RowCase& c, std::ostream& os);

using RowLaw = KindLaw<RowKernel, RowCase>;

/// Every row law, cheapest first.
const std::vector<RowLaw>& row_laws();

/// The law named `name`, or nullptr.
const RowLaw* find_row_law(const std::string& name);

/// A Verdict that neither holds nor fails (status NotRun): the law could not be judged on this
/// kernel or case (no contract declared, a case outside the law's domain); it never counts as a
/// pass. Its explanation says why.
Verdict not_judged(const std::string& why);

/// True for a verdict that neither holds nor fails (not judged, vacuous or not run).
bool is_not_judged(const Verdict& v);

}  // namespace osvs
