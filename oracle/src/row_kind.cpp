// Classification of a row by the special-value semantics of docs/semantics.md §3.
#include <cmath>
#include <stdexcept>

#include "osvs/kernels/enum_names.h"
#include "osvs/oracle/reference.h"

namespace osvs::oracle {

namespace {
constexpr EnumName<RowKind> kRowKindNames[] = {{RowKind::Finite, "finite"},
                                               {RowKind::NaN, "nan"},
                                               {RowKind::PosInf, "pos_inf"},
                                               {RowKind::AllMasked, "all_masked"},
                                               {RowKind::Empty, "empty"}};
}  // namespace

const char* to_string(RowKind k) {
  return name_in(kRowKindNames, k, "unknown");
}

RowKind classify_row(const float* x, std::int64_t n) {
  if (n < 0) throw std::invalid_argument("reference: negative row length");
  if (n > 0 && x == nullptr) throw std::invalid_argument("reference: null row with n > 0");
  if (n > kMaxReferenceRow)
    throw std::invalid_argument("reference: rows longer than 2^28 elements are not certified");
  if (n == 0) return RowKind::Empty;
  bool any_pos_inf = false;
  bool all_neg_inf = true;
  for (std::int64_t j = 0; j < n; ++j) {
    if (std::isnan(x[j])) return RowKind::NaN;
    any_pos_inf |= (x[j] == INFINITY);
    all_neg_inf &= (x[j] == -INFINITY);
  }
  if (any_pos_inf) return RowKind::PosInf;
  return all_neg_inf ? RowKind::AllMasked : RowKind::Finite;
}

}  // namespace osvs::oracle
