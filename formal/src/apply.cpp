// Context::apply: an application of an uninterpreted exp or log, the facts in force built in.
#include <bit>
#include <stdexcept>

#include "osvs/formal/context.h"
#include "osvs/formal/correctly_rounded.h"

namespace osvs::formal {

Sym Context::apply(const std::string& name, const Sym& x) {
  if (name != "exp" && name != "exp2" && name != "log" && name != "log2")
    throw std::invalid_argument("osvs::formal: no uninterpreted function '" + name +
                                "' (exp, exp2, log, log2)");
  z3::expr value = z3::expr(z_, Z3_mk_fpa_to_fp_bv(z_, function(name)(x.bits()), sort()));
  const unsigned top = format_.width() - 1;
  for (auto f = facts.rbegin(); f != facts.rend(); ++f) {
    if (f->function != name) continue;
    if (is_nan_range(*f, format_)) {  // every NaN of this sign
      const z3::expr sign = x.bits().extract(top, top) == z_.bv_val(f->first >> top, 1);
      value = z3::ite(x.fp().mk_is_nan() && sign, z_.fpa_nan(sort()), value);
      continue;
    }
    if (f->last - f->first > 16)
      throw std::invalid_argument("osvs::formal: fact '" + f->statement +
                                  "' spans too many inputs to state one by one");
    for (std::uint64_t bits = f->first; bits <= f->last; ++bits) {
      const float arg = format_.value_of(static_cast<std::uint32_t>(bits));
      value = z3::ite(x.bits() == z_.bv_val(static_cast<std::uint32_t>(bits), format_.width()),
                      fp_constant(z_, correctly_rounded(name, arg, format_)), value);
    }
  }
  const Sym result = Sym::computed(value);
  applications_.push_back({name, x.bits(), result.fp()});
  return result;
}

}  // namespace osvs::formal
