#include "osvs/formal/exp_facts.h"

#include <bit>
#include <stdexcept>

#include "osvs/exhaustive/exps_under_test.h"
#include "osvs/formal/sym.h"

namespace osvs::formal {
namespace {

constexpr std::uint32_t kPositiveNanFirst = 0x7f800001u, kPositiveNanLast = 0x7fffffffu;
constexpr std::uint32_t kNegativeNanFirst = 0xff800001u, kNegativeNanLast = 0xffffffffu;

bool nan_range(const ExpFact& f) {
  return (f.first == kPositiveNanFirst && f.last == kPositiveNanLast) ||
         (f.first == kNegativeNanFirst && f.last == kNegativeNanLast);
}

// The proofs' steps that need them (formal/README.md, "What is assumed of exp"):
//   a tie of finite m's rescales by b^(m - m) = b^(+-0): it must be exactly 1 (d1 + d2 either way);
//   a tie of +inf's rescales by b^(inf - inf) = b^NaN: it must stay NaN (then d is NaN, canonical).
std::vector<ExpFact> make_facts() {
  std::vector<ExpFact> facts;
  for (const char* f : {"exp", "exp2"}) {
    const std::string n = f;
    const char* tie = "commutativity on a tie of finite m's (the rescale b^(m - m))";
    const char* inf_tie = "commutativity on a tie of +inf m's (inf - inf = NaN)";
    facts.push_back({n, 0x00000000u, 0x00000000u, n + "(+0) = 1", tie});
    facts.push_back({n, 0x80000000u, 0x80000000u, n + "(-0) = 1", tie});
    facts.push_back({n, kPositiveNanFirst, kPositiveNanLast, n + "(NaN) is NaN", inf_tie});
    facts.push_back({n, kNegativeNanFirst, kNegativeNanLast, n + "(-NaN) is NaN", inf_tie});
  }
  return facts;
}

}  // namespace

const std::vector<ExpFact>& exp_facts() {
  static const std::vector<ExpFact> facts = make_facts();
  return facts;
}

exhaustive::ExpBase base_of(const std::string& function) {
  if (function == "exp") return exhaustive::ExpBase::E;
  if (function == "exp2") return exhaustive::ExpBase::Two;
  throw std::invalid_argument("osvs::formal: no exp function '" + function + "' (exp, exp2)");
}

std::vector<std::string> exps_standing_for(const std::string& function) {
  const exhaustive::ExpBase base = base_of(function);
  std::vector<std::string> names;
  for (const exhaustive::ExpUnderTest& e : exhaustive::exps_under_test())
    // __expf is no kexp: it is the fast kernel's and a mutant's, outside these proofs.
    if (e.base == base && e.name != "cuda_fast_expf") names.push_back(e.name);
  return names;
}

Sym Context::apply(const std::string& name, const Sym& x) {
  const exhaustive::ExpBase base = base_of(name);
  z3::expr value = z3::expr(z_, Z3_mk_fpa_to_fp_bv(z_, function(name)(x.bits()), fp32()));
  for (auto f = facts.rbegin(); f != facts.rend(); ++f) {
    if (f->function != name) continue;
    if (nan_range(*f)) {  // every NaN of this sign
      const z3::expr sign = x.bits().extract(31, 31) == z_.bv_val(f->first >> 31, 1);
      value = z3::ite(x.fp().mk_is_nan() && sign, z_.fpa_nan(fp32()), value);
      continue;
    }
    if (f->last - f->first > 16)
      throw std::invalid_argument("osvs::formal: fact '" + f->statement +
                                  "' spans too many inputs to state one by one");
    for (std::uint64_t bits = f->first; bits <= f->last; ++bits) {
      const float arg = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
      const float rounded = exhaustive::exact_exp(arg, base).rounded;
      value = z3::ite(x.bits() == z_.bv_val(static_cast<std::uint32_t>(bits), 32),
                      fp_constant(z_, rounded), value);
    }
  }
  const Sym result = Sym::computed(value);
  applications_.push_back({name, x.bits(), result.fp()});
  return result;
}

}  // namespace osvs::formal
