#include "osvs/formal/context.h"

#include <stdexcept>

#include "osvs/formal/exp_facts.h"
#include "osvs/formal/log_facts.h"

namespace osvs::formal {
namespace {
thread_local Context* g_active = nullptr;
}  // namespace

Context& active() {
  if (!g_active) throw std::logic_error("osvs::formal: a symbolic value outside a ContextScope");
  return *g_active;
}

ContextScope::ContextScope(Context& c) : previous_(g_active) {
  g_active = &c;
}
ContextScope::~ContextScope() {
  g_active = previous_;
}

Context::Context(Format format) : facts(all_facts(format)), format_(format) {}

z3::expr Context::fresh_bits(const std::string& prefix) {
  return z_.bv_const((prefix + "!" + std::to_string(counter_++)).c_str(), format_.width());
}

z3::expr Context::bits_of(const z3::expr& fp) {
  if (auto it = bits_.find(fp.id()); it != bits_.end()) return it->second;
  z3::expr bits = fresh_bits("bits");
  define(z3::expr(z_, Z3_mk_fpa_to_fp_bv(z_, bits, sort())) == fp);
  bits_.emplace(fp.id(), bits);
  return bits;
}

z3::func_decl Context::function(const std::string& name) {
  auto it = functions_.find(name);
  if (it == functions_.end())
    it = functions_
             .emplace(name, z_.function(("osvs_" + name).c_str(), z_.bv_sort(format_.width()),
                                        z_.bv_sort(format_.width())))
             .first;
  return it->second;
}

void Explorer::start(std::vector<bool> prefix) {
  prefix_ = std::move(prefix);
  next_ = 0;
  path_.clear();
  seen_.clear();
}

bool Explorer::decide(z3::expr condition) {
  condition = condition.simplify();
  if (condition.is_true()) return true;
  if (condition.is_false()) return false;
  const unsigned id = condition.id();
  if (auto it = seen_.find(id); it != seen_.end()) return it->second;
  if (next_ == prefix_.size()) throw Fork{condition};
  const bool side = prefix_[next_++];
  seen_.emplace(id, side);
  path_.push_back(side ? condition : !condition);
  return side;
}

}  // namespace osvs::formal
