// prove<Op>(law, domain): runs Op's own combine on symbolic states (explore.h), asks the solver
// for inputs in `domain` where the law's two sides differ in any bit, under the exp facts
// (exp_facts.h) alone. Unsatisfiable: proven for every input of the domain and every exp with the
// facts. Satisfiable: the model's inputs are run through Op's float combine (the CPU model, this
// machine's exp); when the model's exp values are not the real exp's and the law then holds, the
// exp at the model's arguments is pinned to the real one and the solver asked again (at most
// kMaxRefinements times), so that a counterexample is one the CPU model (and, replayed, the
// device) shows.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "osvs/formal/context.h"
#include "osvs/formal/domain.h"
#include "osvs/formal/explore.h"
#include "osvs/formal/law.h"
#include "osvs/formal/sym_ops.h"
#include "osvs/formal/sym_state.h"
#include "osvs/kernels/narrow_float.h"

namespace osvs::formal {

inline constexpr int kMaxRefinements = 8;

struct ProveOptions {
  /// The state's format and the operator's arithmetic (format.h): f32, or bf16 / fp16, every
  /// operation rounded to it, exp uninterpreted over its bits (formal/README.md).
  Format format = kFp32;
  bool fmad = true;         ///< Context::fmad
  unsigned timeout_ms = 0;  ///< 0: none
  bool keep_smt2 = false;
  bool solve = true;  ///< false: build the query (smt2) only
  /// Arguments at which every exp the query applies is pinned to this machine's value before the
  /// first model (a search over a few maxima pins their differences up front).
  std::vector<float> pins;
  /// Pin the exp at the differences of the domain's m_values / fixed_m (a search's maxima).
  bool pin_search_maxima = true;
  /// The exp facts the query may use (exp_facts.h); a test removes one to show it is needed.
  std::optional<std::vector<FunctionFact>> facts;
};

/// The symbolic query of one law, built from an operator's source.
struct LawQuery {
  SymState a, b;      ///< the inputs (b unused by the identity laws)
  SymState lhs, rhs;  ///< the law's two sides
  z3::expr domain;    ///< the inputs' constraint
  int paths = 0;
};

/// Solves q in ctx: proven, or a model refined until `concrete` (the law's two sides on the CPU
/// model for given inputs) reproduces it.
using ConcreteSides = std::function<std::pair<State, State>(State a, State b)>;
ProofResult solve_law(Context& ctx, const LawQuery& q, const ConcreteSides& concrete,
                      const ProveOptions& options);

namespace detail {

/// The identity an identity law combines with. Op::initial(), or where Op's identity is a family
/// (an empty attention partial: lse = -inf, its o anything, docs/semantics.md §8) the member
/// Op::identity_from(free) that takes its free fields from `free` (the query's b, left free by
/// every domain, so that the law is asked of every member).
template <class Op, class S>
S identity_of(const S& free) {
  if constexpr (requires { Op::identity_from(free); })
    return Op::identity_from(free);
  else
    return Op::initial();
}

template <class Op>
inline constexpr bool kIdentityIsAFamily = requires(State s) {
  Op::identity_from(s);
};

inline SymState input_state(Context& ctx, const char* name, const Domain& domain, std::size_t i) {
  const std::string n = name;
  const unsigned w = ctx.format().width();
  const Sym d = Sym::from_bits(ctx.z().bv_const((n + ".d").c_str(), w));
  if (i < domain.fixed_m.size()) return {Sym(domain.fixed_m[i]), d};
  return {Sym::from_bits(ctx.z().bv_const((n + ".m").c_str(), w)), d};
}

template <class Op>
LawQuery build_query(Context& ctx, Law law, const Domain& domain) {
  SymState a = input_state(ctx, "a", domain, 0), b = input_state(ctx, "b", domain, 1);
  const SymState e = identity_of<Op>(b);
  int runs_l = 0, runs_r = 0;
  const auto run = [&](const SymState& x, const SymState& y, int* runs) {
    return explore<SymState>(
        ctx, [&] { return SymState(Op::combine(x, y)); }, runs);
  };
  switch (law) {
    case Law::Commutativity: {
      SymState l = run(a, b, &runs_l), r = run(b, a, &runs_r);
      return {a, b, l, r, domain.contains(a) && domain.contains(b), runs_l + runs_r};
    }
    case Law::IdentityLeft:
      return {a, b, run(e, a, &runs_l), a, domain.contains(a), runs_l};
    case Law::IdentityRight:
      return {a, b, run(a, e, &runs_l), a, domain.contains(a), runs_l};
    case Law::IdentityOfIdentity: {
      // Two members of the identity family (the same one where it is no family), initial() the
      // result.
      const SymState first = identity_of<Op>(a), result = Op::initial();
      return {a, b, run(first, e, &runs_l), result, ctx.z().bool_val(true), runs_l};
    }
  }
  throw std::logic_error("osvs::formal: unknown law");
}

// S is State (the CPU model) or NarrowState (bf16 / fp16 arithmetic, kernels' narrow_float.h).
template <class Op, class S>
std::pair<S, S> concrete_sides(Law law, S a, S b) {
  const S e = identity_of<Op>(b);
  switch (law) {
    case Law::Commutativity:
      return {Op::combine(a, b), Op::combine(b, a)};
    case Law::IdentityLeft:
      return {Op::combine(e, a), a};
    case Law::IdentityRight:
      return {Op::combine(a, e), a};
    case Law::IdentityOfIdentity:
      return {Op::combine(identity_of<Op>(a), e), Op::initial()};
  }
  throw std::logic_error("osvs::formal: unknown law");
}

/// Whether Op's combine is written over its state type, so that it runs on a bf16 / fp16 state
/// (kernels' NarrowState): the softmax operators and the attention merge.
template <class Op>
inline constexpr bool kHasNarrowModel = requires(NarrowState<DType::BF16> s) {
  Op::combine(s, s);
};

/// The law's two sides on states stored in T, Op's arithmetic rounded to T (kFmad: contracted as
/// the float source is under --fmad=true): the concrete side of a narrow counterexample, the same
/// code the executors' combine_pairs_in runs.
template <class Op, DType T, bool kFmad>
ConcreteSides narrow_concrete(Law law) {
  return [law](State a, State b) {
    using S = NarrowState<T, kFmad>;
    const auto [l, r] = concrete_sides<Op>(law, S(a), S(b));
    return std::pair<State, State>{l.widened(), r.widened()};
  };
}

template <class Op, DType T>
ConcreteSides narrow_concrete(Law law, bool fmad) {
  return fmad ? narrow_concrete<Op, T, true>(law) : narrow_concrete<Op, T, false>(law);
}

template <class Op>
ConcreteSides concrete_of(Law law, const ProveOptions& options) {
  if (options.format.is_f32())
    return [law](State a, State b) { return concrete_sides<Op>(law, a, b); };
  if constexpr (kHasNarrowModel<Op>) {
    if (options.format.dtype() == DType::BF16)
      return narrow_concrete<Op, DType::BF16>(law, options.fmad);
    return narrow_concrete<Op, DType::F16>(law, options.fmad);
  }
  throw std::invalid_argument(std::string("osvs::formal: ") + Op::kName + " has no " +
                              options.format.name +
                              " state (its combine is not written over "
                              "its state type)");
}

}  // namespace detail

/// Proves `law` of Op over `domain` (Op::combine must be written over its state type).
template <class Op>
ProofResult prove(Law law, const Domain& domain, const ProveOptions& options = {}) {
  const ConcreteSides concrete = detail::concrete_of<Op>(law, options);  // refuses early
  Context ctx(options.format);
  ctx.fmad = options.fmad;
  if (options.facts) ctx.facts = *options.facts;
  ContextScope scope(ctx);
  LawQuery q = detail::build_query<Op>(ctx, law, domain);
  ProveOptions o = options;
  if (options.pin_search_maxima)
    for (const std::vector<float>* ms : {&domain.m_values, &domain.fixed_m})
      for (float x : *ms)
        for (float y : *ms) o.pins.push_back(x - y);
  ProofResult r = solve_law(ctx, q, concrete, o);
  if (r.counterexample && law != Law::Commutativity && detail::kIdentityIsAFamily<Op>) {
    // The identity members the law used, for the record (describe prints them).
    if (law == Law::IdentityOfIdentity)
      r.counterexample->a = detail::identity_of<Op>(r.counterexample->a);
    r.counterexample->b = detail::identity_of<Op>(r.counterexample->b);
    r.counterexample->identity_from_model = true;
  }
  r.op = Op::kName;
  r.law = law;
  r.format = options.format;
  r.domain = law == Law::IdentityOfIdentity ? "the identity alone" : domain.name();
  if (!options.format.is_f32()) r.domain += std::string(" (") + options.format.name + " state)";
  return r;
}

}  // namespace osvs::formal
