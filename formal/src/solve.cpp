// The solver's side of a proof: the query, the model, and the refinement that pins the
// uninterpreted exp to the real one at the model's arguments until the CPU model reproduces the
// counterexample (prove.h).
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>

#include "osvs/formal/exp_facts.h"
#include "osvs/formal/prove.h"
#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/exp.h"

namespace osvs::formal {

namespace {

// The CPU model's exps and logs (lse_math.h: kexp, exp2 and the logs of the attention kernels).
float host_function(const std::string& name, float x) {
  if (name == "exp") return osvs::kexp(x);
  if (name == "exp2") return osvs::lse_exp(LseBase::Two, x);
  if (name == "log") return osvs::lse_log(LseBase::E, x);
  if (name == "log2") return osvs::lse_log(LseBase::Two, x);
  throw std::invalid_argument("osvs::formal: no host function for '" + name + "'");
}

// The host's function at x (a value of f), rounded to f: a bf16 / fp16 kernel's exp and log, as
// kernels' Narrow computes them (narrow_float.h).
float host_in(const Format& f, const std::string& name, float x) {
  return f.round_float(host_function(name, x));
}

std::uint32_t bits_in(const z3::model& model, const z3::expr& bv) {
  return static_cast<std::uint32_t>(model.eval(bv, true).get_numeral_uint64());
}

float float_in(const Format& f, const z3::model& model, const z3::expr& fp) {
  // SMT has one NaN, and the bits z3 gives for it through to_ieee_bv are any (0 included).
  if (model.eval(fp.mk_is_nan(), true).is_true()) return std::numeric_limits<float>::quiet_NaN();
  return f.value_of(bits_in(model, fp.mk_to_ieee_bv()));
}

// A state of the model, its values as floats (exact; a bf16 / fp16 one widened).
State state_in(const Format& f, const z3::model& model, const SymState& s) {
  return {f.value_of(bits_in(model, s.m.bits())), f.value_of(bits_in(model, s.d.bits()))};
}

bool bitwise_differ(State x, State y) {
  return !bitwise_equal(x, y);
}

}  // namespace

ProofResult solve_law(Context& ctx, const LawQuery& q, const ConcreteSides& concrete,
                      const ProveOptions& options) {
  ProofResult r;
  r.paths = q.paths;
  z3::solver solver(ctx.z());
  if (options.timeout_ms) {
    z3::params p(ctx.z());
    p.set("timeout", options.timeout_ms);
    solver.set(p);
  }
  // The violation first: it defines the bits it compares (Sym::bits), then every definition.
  const z3::expr violation = q.lhs.m.bits() != q.rhs.m.bits() || q.lhs.d.bits() != q.rhs.d.bits();
  for (const z3::expr& d : ctx.definitions()) solver.add(d);
  solver.add(q.domain);
  solver.add(violation);
  if (options.keep_smt2) r.smt2 = solver.to_smt2();
  if (!options.solve) return r;

  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const Format& format = ctx.format();
  const unsigned width = format.width();
  std::set<std::uint32_t> pinned;
  std::set<std::string> functions;
  for (const Application& app : ctx.applications()) functions.insert(app.function);
  for (const std::string& f : functions)
    for (float pin : options.pins) {
      const float x = format.round_float(pin);
      solver.add(ctx.function(f)(ctx.z().bv_val(format.bits_of(x), width)) ==
                 ctx.z().bv_val(format.bits_of(host_in(format, f, x)), width));
    }
  for (int round = 0;; ++round) {
    const z3::check_result verdict = solver.check();
    if (verdict == z3::unsat) {
      r.proven = !r.counterexample.has_value();
      r.seconds = elapsed();
      return r;
    }
    if (verdict == z3::unknown)
      throw std::runtime_error("osvs::formal: the solver gave up (" + solver.reason_unknown() +
                               ")");
    const z3::model model = solver.get_model();
    Counterexample c;
    c.a = state_in(format, model, q.a);
    c.b = state_in(format, model, q.b);
    std::tie(c.lhs, c.rhs) = concrete(c.a, c.b);
    c.reproduced = bitwise_differ(c.lhs, c.rhs);
    c.refinements = round;
    bool pinned_new = false;
    std::set<std::pair<std::string, std::uint32_t>> listed;
    for (const Application& app : ctx.applications()) {
      const std::uint32_t key = bits_in(model, app.argument);
      const float x = format.value_of(key);
      if (!listed.insert({app.function, key}).second) continue;
      ExpValue v{app.function, x, float_in(format, model, app.result),
                 host_in(format, app.function, x)};
      if (std::bit_cast<std::uint32_t>(v.model) != std::bit_cast<std::uint32_t>(v.host) &&
          !(std::isnan(v.model) && std::isnan(v.host)) && pinned.insert(key).second) {
        solver.add(ctx.function(app.function)(ctx.z().bv_val(key, width)) ==
                   ctx.z().bv_val(format.bits_of(v.host), width));
        pinned_new = true;
      }
      c.exps.push_back(v);
    }
    r.counterexample = c;
    if (c.reproduced || !pinned_new || round == kMaxRefinements) {
      r.seconds = elapsed();
      return r;
    }
  }
}

}  // namespace osvs::formal
