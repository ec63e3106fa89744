// The registry of combine operators: osvs's own entries, then the user's in registration order.
#include <mutex>
#include <stdexcept>
#include <string>

#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/validate.h"

namespace osvs {
namespace {

constexpr const CombineOperator* kBuiltins[] = {
    &builtin_combine::seed,           &builtin_combine::hardened,
    &builtin_combine::overwrite_m,    &builtin_combine::no_rescale,
    &builtin_combine::naive_identity, &builtin_combine::unordered_ties,
    &builtin_combine::fast_exp};

struct UserEntries {
  std::mutex lock;
  std::vector<const CombineOperator*> ops;
};

UserEntries& user_entries() {
  static UserEntries e;  // constructed on first use: registrations run at static init
  return e;
}

std::vector<const CombineOperator*> all_entries() {
  std::vector<const CombineOperator*> all(std::begin(kBuiltins), std::end(kBuiltins));
  UserEntries& u = user_entries();
  const std::lock_guard<std::mutex> hold(u.lock);
  all.insert(all.end(), u.ops.begin(), u.ops.end());
  return all;
}

}  // namespace

CombineKind register_combine(const CombineOperator* op) {
  if (op == nullptr || op->name == nullptr || *op->name == '\0')
    throw std::invalid_argument("register_combine: an operator needs a name");
  if (parse_combine(op->name))
    throw std::invalid_argument(std::string("register_combine: a combine operator named '") +
                                op->name + "' is already registered");
  UserEntries& u = user_entries();
  const std::lock_guard<std::mutex> hold(u.lock);
  u.ops.push_back(op);
  return CombineKind(op);
}

const CombineDeviceOps& device_ops(CombineKind k) {
  if (k.op().device == nullptr)
    throw InvalidLaunch(std::string("combine operator '") + k.op().name +
                        "' has no device code: it was registered from a file the host compiler "
                        "built; register it in a .cu file to run it on the GPU");
  return *k.op().device;
}

const char* to_string(CombineKind k) {
  return k.op().name;
}

std::optional<CombineKind> parse_combine(std::string_view s) {
  for (const CombineOperator* op : all_entries())
    if (s == op->name) return CombineKind(op);
  return std::nullopt;
}

CombineKind original_of(CombineKind k) {
  return k.op().original ? CombineKind(k.op().original) : k;
}

bool is_mutant(CombineKind k) {
  return k.op().original != nullptr;
}

CombineAlgebra algebra_of(CombineKind k) {
  return original_of(k).op().algebra;
}

std::vector<CombineKind> registered_combines() {
  std::vector<CombineKind> out;
  for (const CombineOperator* op : all_entries()) out.emplace_back(op);
  return out;
}

std::vector<CombineKind> registered_mutants() {
  std::vector<CombineKind> out;
  for (CombineKind k : registered_combines())
    if (is_mutant(k)) out.push_back(k);
  return out;
}

}  // namespace osvs
