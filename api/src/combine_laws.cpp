// The combine kind's laws (osvs/api/combine_laws.h): the property suite's combine laws, each run
// on the executor of the kernel's side, and the operator's handle in this process's registry.
#include "osvs/api/combine_laws.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <sstream>
#include <utility>

#include "case_json.h"
#include "osvs/api/law_names.h"
#include "osvs/kernels/executor.h"
#include "osvs/properties/case.h"
#include "osvs/properties/registry.h"

namespace osvs {
namespace {

/// The suite's property named `name` (registered: properties/registry.cpp).
const PropertyInfo& property_named(std::string_view name) {
  const PropertyInfo* p = find_property(name);
  if (!p)
    throw std::logic_error("the property suite has no combine law '" + std::string(name) + "'");
  return *p;
}

/// The CPU model, made once.
Executor* cpu_executor() {
  static const std::unique_ptr<Executor> cpu = make_cpu_executor();
  return cpu.get();
}

/// The CUDA executor, made once; nullptr with the reason where there is no device.
Executor* cuda_executor(std::string* why_not) {
  static std::string reason;
  static const std::unique_ptr<Executor> cuda = make_cuda_executor(&reason);
  if (!cuda && why_not) *why_not = reason;
  return cuda.get();
}

/// The suite's case of c for k's operator.
Case suite_case(const CombineKernel& k, const CombineCase& c) {
  Case s;
  s.combine = combine_handle(k);
  s.states = c.states;
  s.state_format = c.state_format;
  s.rows = c.rows;
  s.schedules = c.schedules;
  return s;
}

template <std::size_t I>
Verdict check_law(const CombineKernel& k, const CombineCase& c) {
  std::string why;
  Executor* ex = k.where() == Where::Host ? cpu_executor() : cuda_executor(&why);
  if (!ex) return Verdict::not_run(why);
  return property_named(kCombineLawNames[I]).check(suite_case(k, c), *ex);
}

/// "" where k claims the law (its operator's declarations) or declares it a known defect (run
/// to show it); otherwise why the law is left out.
template <std::size_t I>
std::string excluded_law(const CombineKernel& k) {
  const PropertyInfo& p = property_named(kCombineLawNames[I]);
  if (k.known_defects().count(p.name) > 0) return "";
  Case configuration;
  configuration.combine = combine_handle(k);
  return p.claimed(configuration)
             ? ""
             : k.name() + " does not claim \"" + p.law + "\" (its operator's declarations)";
}

template <std::size_t... I>
std::vector<CombineLaw> make_laws(std::index_sequence<I...>) {
  return {CombineLaw{std::string(kCombineLawNames[I]), property_named(kCombineLawNames[I]).law,
                     &check_law<I>, &excluded_law<I>}...};
}

}  // namespace

const std::vector<CombineLaw>& combine_operator_laws() {
  static const std::vector<CombineLaw> laws =
      laws_named(make_laws(std::make_index_sequence<std::size(kCombineLawNames)>{}),
                 kCombineLawNames, "combine_operator_laws()");
  return laws;
}

CombineKind combine_handle(const CombineKernel& k) {
  static std::mutex registering;
  const std::lock_guard<std::mutex> lock(registering);
  for (CombineKind c : registered_combines())
    if (&c.op() == k.op()) return c;
  return register_combine(k.op());
}

bool runnable(const CombineKernel& k, std::string* why_not) {
  if (k.where() == Where::Host) return true;
  std::string why;
  if (cuda_executor(&why)) return true;
  if (why_not) *why_not = k.name() + " runs on the GPU: " + why;
  return false;
}

std::string case_summary(const CombineCase& c) {
  std::ostringstream s;
  if (!c.states.empty()) s << c.states.size() << " states, " << to_string(c.state_format);
  if (!c.rows.empty())
    s << (c.states.empty() ? "" : "; ") << "a row of " << c.rows[0].size() << " elements, "
      << c.schedules.size() << " schedule(s)";
  return s.str();
}

void showValue(const CombineCase& c, std::ostream& os) {
  os << api::case_json(c).dump();
}

std::string kernel_summary(const CombineKernel& k) {
  const CombineOperator& op = *k.op();
  std::ostringstream s;
  s << "combine operator " << op.name << " on "
    << (k.where() == Where::Host ? "the CPU model" : "the GPU's harness")
    << (op.algebra.bitwise_commutative ? ", bitwise commutative" : "")
    << (op.algebra.exact_identity ? ", exact identity" : "") << ", bound shape "
    << (op.algebra.rescales_both_sides ? "two exps per combine" : "one exp per combine");
  if (op.defect) s << ", a mutant: " << op.defect;
  return s.str();
}

}  // namespace osvs
