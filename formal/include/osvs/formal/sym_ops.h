// The symbolic overloads of what the operators call besides + - * / and comparisons, found by
// argument-dependent lookup from their unqualified calls (Sym lives in osvs::formal):
//
//   float_bits, bits_float     the bits of a value, and a value from bits (exact)
//   signbit                    the sign bit (for fp_model.h's fmax rule)
//   mul_add_k(a, b, c)         fp_model.h: a*b + c as the kernels write it; contracted to one fma
//                              by nvcc --fmad=true (its default) and by the CPU model under
//                              OSVS_MODEL_FMAD, rounded twice otherwise (Context::fmad)
//   mul_add_k(a, b, c, d)      a*b + c*d: the LEFT product fused, the right one rounded (the PTX
//                              nvcc emits, fp_model.h), or both rounded when !Context::fmad
//   fmaf                       one rounding, always
//   fmax_k                     CUDA fmaxf, by fp_model.h's own rule (detail::fmax_rule)
//   kexp, exp2f                uninterpreted functions "exp" and "exp2" (exp_facts.h says what is
//                              assumed of them and how each assumption is checked)
//   lse_exp, lse_log           lse_math.h's b^x and log_b(x) of the attention kernels: "exp" /
//                              "exp2" and the uninterpreted "log" / "log2" (log_facts.h)
//
// is_nan and unordered need nothing here: hd.h writes them over the scalar type.
#pragma once

#include <cstdint>

#include "osvs/formal/context.h"
#include "osvs/formal/sym.h"
#include "osvs/kernels/attention/lse_math.h"
#include "osvs/kernels/fp_model.h"

namespace osvs::formal {

inline SymBits float_bits(const Sym& x) {
  return SymBits(x.bits());
}
inline Sym bits_float(const SymBits& b) {
  return Sym::from_bits(b.expr());
}
inline SymBool signbit(const Sym& x) {
  const unsigned top = active().format().width() - 1;
  return SymBool(x.bits().extract(top, top) == x.fp().ctx().bv_val(1, 1));
}

inline Sym mul_add_k(const Sym& a, const Sym& b, const Sym& c) {
  return active().fmad ? fused_mul_add(a, b, c) : a * b + c;
}
inline Sym mul_add_k(const Sym& a, const Sym& b, const Sym& c, const Sym& d) {
  return active().fmad ? fused_mul_add(a, b, c * d) : a * b + c * d;
}
inline Sym fmaf(const Sym& a, const Sym& b, const Sym& c) {
  return fused_mul_add(a, b, c);
}
inline Sym fmax_k(const Sym& a, const Sym& b) {
  return osvs::detail::fmax_rule(a, b);
}
inline Sym kexp(const Sym& x) {
  return active().apply("exp", x);
}
inline Sym exp2f(const Sym& x) {
  return active().apply("exp2", x);
}
inline Sym lse_exp(LseBase base, const Sym& x) {
  return base == LseBase::E ? kexp(x) : exp2f(x);
}
inline Sym lse_log(LseBase base, const Sym& x) {
  return active().apply(base == LseBase::E ? "log" : "log2", x);
}

}  // namespace osvs::formal
