// The two kinds of kernels under test (osvs/api/kind.h): row kernels and merge kernels.
#include "osvs/api/kind.h"

#include <sstream>

namespace osvs {
const std::vector<RowLaw>& RowKind::laws() {
  return row_laws();
}

const RowLaw* RowKind::find_law(std::string_view name) {
  return find_row_law(std::string(name));
}

const std::vector<RowKernel>& RowKind::kernels() {
  return row_kernels();
}

const RowKernel* RowKind::find_kernel(std::string_view name) {
  return find_row_kernel(name);
}

Verdict RowKind::check(const RowLaw& law, const RowKernel& k, const RowCase& c) {
  try {
    return law.check(k, c);
  } catch (const KernelFailure& e) {
    return Verdict::fail(e.what());
  }
}

std::string RowKind::excluded(const RowLaw& law, const RowKernel& k) {
  return law.excluded(k);
}

std::string RowKind::summary(const RowCase& c) {
  std::ostringstream s;
  s << c.rows.size() << " row(s) of " << (c.rows.empty() ? 0 : c.rows[0].size()) << " elements";
  if (c.layout.x_pad || c.layout.y_pad)
    s << ", padding " << c.layout.x_pad << "/" << c.layout.y_pad;
  if (c.batch_rows > 1) s << ", at row " << c.batch_position << " of " << c.batch_rows;
  return s.str();
}

const std::vector<MergeLaw>& MergeKind::laws() {
  return merge_laws();
}

const MergeLaw* MergeKind::find_law(std::string_view name) {
  return find_merge_law(std::string(name));
}

const std::vector<MergeKernel>& MergeKind::kernels() {
  return merge_kernels();
}

const MergeKernel* MergeKind::find_kernel(std::string_view name) {
  return find_merge_kernel(name);
}

Verdict MergeKind::check(const MergeLaw& law, const MergeKernel& k, const MergeCase& c) {
  try {
    return law.check(fit_to(k, c), merge_under_test(k));
  } catch (const KernelFailure& e) {
    return Verdict::fail(e.what());
  }
}

std::string MergeKind::excluded(const MergeLaw& law, const MergeKernel& k) {
  if (law.name == "special_values" && k.empty_partial() == EmptyPartial::PosInfLse)
    return k.name() +
           " represents an empty partial as lse +inf: a +inf lse cannot be asked about as a "
           "value";
  return "";
}

std::string MergeKind::summary(const MergeCase& c) {
  const AttnStates& p = c.parts.front();
  return std::to_string(c.parts.size()) + " partials of " + std::to_string(p.rows) +
         " row(s) x head_dim " + std::to_string(p.head_dim) + ", " + to_string(p.o_type) +
         ", base " + to_string(c.base);
}

}  // namespace osvs
