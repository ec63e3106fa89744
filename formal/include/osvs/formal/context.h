// Where a proof's symbolic values live: the z3 context, the definitions of computed values' bits,
// the uninterpreted exps and logs with every application made, and the Explorer that runs an
// operator's source once per path (explore.h).
#pragma once

#include <z3++.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "osvs/formal/format.h"
#include "osvs/formal/function_fact.h"
#include "osvs/formal/sym.h"

namespace osvs::formal {

/// Thrown by a branch on a condition this run has not decided yet: explore() catches it and runs
/// the operator again down each side.
struct Fork {
  z3::expr condition;
};

/// The decisions of the path being run: a prefix taken as given, then a Fork at the first new one.
class Explorer {
 public:
  void start(std::vector<bool> prefix);
  /// The side of `condition` this run takes: constant conditions go their way, a condition met
  /// before on this path goes the same way, the prefix is replayed, and a new one forks.
  bool decide(z3::expr condition);
  /// The conditions decided on this path with their sides (each a literal of the path condition).
  const std::vector<z3::expr>& path() const { return path_; }

 private:
  std::vector<bool> prefix_;
  std::size_t next_ = 0;
  std::vector<z3::expr> path_;
  std::unordered_map<unsigned, bool> seen_;
};

/// One application f(arg) of an uninterpreted exp or log, kept so that a model's values can be
/// compared with the real function's (refinement of a counterexample, prove.h).
struct Application {
  std::string function;
  z3::expr argument;  ///< the argument's bits
  z3::expr result;    ///< the value (facts applied)
};

class Context {
 public:
  /// A context whose values are of `format` (format.h): its sort, its bits' width, its
  /// arithmetic's rounding, and the uninterpreted functions' domain and range.
  explicit Context(Format format = kFp32);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  z3::context& z() { return z_; }
  const Format& format() const { return format_; }
  /// The format's floating-point sort.
  z3::sort sort() { return sort_of(z_, format_); }
  /// A new constant of the format's width named prefix!n.
  z3::expr fresh_bits(const std::string& prefix);
  /// The bits of the computed value `fp`: a fresh constant b defined by to_fp(b) = fp in SMT's
  /// equality (exact for every non-NaN value, +0 and -0 apart; any NaN pattern for a NaN, as SMT
  /// has one NaN). One per term: every run of the source that computes it shares it.
  z3::expr bits_of(const z3::expr& fp);
  /// Asserted with every query: the definitions of computed bits.
  void define(const z3::expr& definition) { definitions_.push_back(definition); }
  const std::vector<z3::expr>& definitions() const { return definitions_; }

  /// f(x) for the exp or log `name` ("exp", "exp2", "log", "log2"): the facts of exp_facts.h and
  /// log_facts.h where they apply (an
  /// if-then-else on x's bits), else g(bits of x) for an uninterpreted g over the format's
  /// bit-vectors. Recorded. (The function is over bits, not over the floating-point sort: z3 4.8.12
  /// returned models that broke asserted equations of a function over floats; over bit-vectors the
  /// solver's congruence is the plain one.)
  Sym apply(const std::string& name, const Sym& x);
  /// The uninterpreted g of `name`, the format's bits to the format's bits.
  z3::func_decl function(const std::string& name);
  /// The facts apply() builds in (all_facts(format), unless a test removes one).
  std::vector<FunctionFact> facts;
  const std::vector<Application>& applications() const { return applications_; }

  /// True (the default): a*b + c contracts to one fma, as nvcc --fmad=true and the CPU model with
  /// OSVS_MODEL_FMAD do (fp_model.h). False: every product and sum rounds on its own.
  bool fmad = true;

  Explorer& explorer() { return explorer_; }

 private:
  z3::context z_;
  Format format_;
  std::vector<z3::expr> definitions_;
  std::unordered_map<std::string, z3::func_decl> functions_;
  std::vector<Application> applications_;
  std::unordered_map<unsigned, z3::expr> bits_;
  Explorer explorer_;
  unsigned counter_ = 0;
};

/// Makes `c` the active context of this thread for its lifetime.
class ContextScope {
 public:
  explicit ContextScope(Context& c);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  Context* previous_;
};

}  // namespace osvs::formal
