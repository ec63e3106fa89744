#include "osvs/formal/exp_facts.h"

#include <stdexcept>

#include "binary32_facts.h"
#include "osvs/exhaustive/exps_under_test.h"

namespace osvs::formal {
namespace {

// The proofs' steps that need them (formal/README.md, "What is assumed of exp"):
//   a tie of finite m's rescales by b^(m - m) = b^(+-0): it must be exactly 1 (d1 + d2 either way);
//   a tie of +inf's rescales by b^(inf - inf) = b^NaN: it must stay NaN (then d is NaN, canonical).
// The same four facts in every format, over its own bits.
std::vector<FunctionFact> make_facts(const Format& format) {
  std::vector<FunctionFact> facts;
  const std::uint32_t sign = format.sign_bit();
  const std::uint32_t nan_first = format.positive_nan_first(),
                      nan_last = format.positive_nan_last();
  for (const char* f : {"exp", "exp2"}) {
    const std::string n = f;
    const char* tie = "commutativity on a tie of finite m's (the rescale b^(m - m))";
    const char* inf_tie = "commutativity on a tie of +inf m's (inf - inf = NaN)";
    facts.push_back({n, 0u, 0u, n + "(+0) = 1", tie});
    facts.push_back({n, sign, sign, n + "(-0) = 1", tie});
    facts.push_back({n, nan_first, nan_last, n + "(NaN) is NaN", inf_tie});
    facts.push_back({n, nan_first | sign, nan_last | sign, n + "(-NaN) is NaN", inf_tie});
  }
  return facts;
}

}  // namespace

const std::vector<FunctionFact>& exp_facts() {
  return binary32_facts<make_facts>();
}

std::vector<FunctionFact> exp_facts(const Format& format) {
  return make_facts(format);
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

}  // namespace osvs::formal
