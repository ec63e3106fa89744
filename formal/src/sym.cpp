// Sym's terms. Every operation rounds to nearest even (the kernels' mode, host and device); a
// computed value's bits are defined by Context::define (sym.h says why a NaN's stay free).
#include "osvs/formal/sym.h"

#include <z3.h>

#include <bit>

#include "osvs/formal/context.h"

namespace osvs::formal {
namespace {

z3::expr rne(z3::context& z) {
  return z3::expr(z, Z3_mk_fpa_round_nearest_ties_to_even(z));
}

const Format& format() {
  return active().format();
}

z3::expr to_fp(const z3::expr& bits) {
  z3::context& z = bits.ctx();
  return z3::expr(z, Z3_mk_fpa_to_fp_bv(z, bits, sort_of(z, format())));
}

// Rewrites made while the term is built. Each is an identity of IEEE 754 binary arithmetic (any
// format)
// rounding to nearest even, on values (a NaN's payload is free in this model anyway, sym.h); they
// only spare the solver re-deriving, by bit-blasting, facts of arithmetic that no law depends on
// being re-proven each time (fma(x, 1, y) = fma(y, 1, x) alone takes z3 100 s that way):
//   R1  x + y = y + x, x * y = y * x, fma(x, y, z) = fma(y, x, z): operands in a fixed order
//   R2  x * 1 = x (exact, signed zeros and infinities included)
//   R3  fma(x, 1, z) = x + z (x * 1 is exact, so both round x + z once)
//   R4  f(.., if c then p else q, ..) = if c then f(.., p, ..) else f(.., q, ..), applied to a
//       product's or an fma's factor whose then-side is a constant (the exp facts' selects), so
//       that R2 and R3 meet the constant
//   R5  x - y = +0 for fp.eq(x, y) and x finite, except (-0) - (+0) = -0 (an exact 0 difference
//       is +0 in this rounding, and -0 - +0 = -0 + -0)
bool is_ite(const z3::expr& e) {
  return e.is_app() && e.decl().decl_kind() == Z3_OP_ITE;
}
bool liftable(const z3::expr& e) {
  return is_ite(e) && Z3_is_numeral_ast(e.ctx(), e.arg(1));
}
bool is_one(const z3::expr& e) {
  return z3::eq(e, fp_constant(e.ctx(), 1.0f).simplify());
}
void order(z3::expr& x, z3::expr& y) {
  if (x.id() > y.id()) std::swap(x, y);
}

z3::expr build_add(z3::expr x, z3::expr y) {
  order(x, y);
  z3::context& z = x.ctx();
  return z3::expr(z, Z3_mk_fpa_add(z, rne(z), x, y));
}

z3::expr build_mul(z3::expr x, z3::expr y) {
  if (liftable(y)) std::swap(x, y);
  if (liftable(x)) return z3::ite(x.arg(0), build_mul(x.arg(1), y), build_mul(x.arg(2), y));
  if (is_one(x)) return y;
  if (is_one(y)) return x;
  order(x, y);
  z3::context& z = x.ctx();
  return z3::expr(z, Z3_mk_fpa_mul(z, rne(z), x, y));
}

z3::expr build_fma(z3::expr x, z3::expr y, const z3::expr& c) {
  if (liftable(y)) std::swap(x, y);
  if (liftable(x)) return z3::ite(x.arg(0), build_fma(x.arg(1), y, c), build_fma(x.arg(2), y, c));
  if (is_one(x)) return build_add(y, c);
  if (is_one(y)) return build_add(x, c);
  order(x, y);
  z3::context& z = x.ctx();
  return z3::expr(z, Z3_mk_fpa_fma(z, rne(z), x, y, c));
}

z3::expr build_sub(const z3::expr& x, const z3::expr& y) {
  z3::context& z = x.ctx();
  const z3::expr equal_finite =
      z3::expr(z, Z3_mk_fpa_eq(z, x, y)) && !x.mk_is_inf() && !x.mk_is_nan();
  const z3::expr minus_zero_case = x.mk_is_zero() && z3::expr(z, Z3_mk_fpa_is_negative(z, x)) &&
                                   z3::expr(z, Z3_mk_fpa_is_positive(z, y));
  const z3::expr zero = z3::ite(minus_zero_case, fp_constant(z, -0.0f), fp_constant(z, 0.0f));
  return z3::ite(equal_finite, zero, z3::expr(z, Z3_mk_fpa_sub(z, rne(z), x, y)));
}

using Binary = Z3_ast (*)(Z3_context, Z3_ast, Z3_ast, Z3_ast);

Sym rounded(Binary op, const Sym& a, const Sym& b) {
  z3::context& z = a.fp().ctx();
  return Sym::computed(z3::expr(z, op(z, rne(z), a.fp(), b.fp())));
}

using Compare = Z3_ast (*)(Z3_context, Z3_ast, Z3_ast);

SymBool compared(Compare op, const Sym& a, const Sym& b) {
  z3::context& z = a.fp().ctx();
  return SymBool(z3::expr(z, op(z, a.fp(), b.fp())));
}

}  // namespace

z3::sort sort_of(z3::context& z, const Format& f) {
  return z.fpa_sort(f.ebits, f.sbits);
}

z3::expr fp_constant(z3::context& z, float c) {
  return to_fp(z.bv_val(format().bits_of(c), format().width()));
}

SymBool::operator bool() const {
  return active().explorer().decide(e_);
}

SymBool operator==(const SymBits& a, std::uint32_t b) {
  return SymBool(a.bv_ == a.bv_.ctx().bv_val(b, a.bv_.get_sort().bv_size()));
}

Sym::Sym(float c)
    : fp_(fp_constant(active().z(), c)),
      bits_(active().z().bv_val(format().bits_of(c), format().width())) {}

Sym Sym::from_bits(const z3::expr& bits) {
  return Sym(to_fp(bits), bits);
}

Sym Sym::computed(const z3::expr& fp) {
  return Sym(fp.simplify(), std::nullopt);
}

const z3::expr& Sym::bits() const {
  if (!bits_) bits_ = active().bits_of(fp_);
  return *bits_;
}

Sym Sym::select(const z3::expr& c, const Sym& x, const Sym& y) {
  // Exact bits on either side (an input's NaN payload) must survive the join.
  if (!x.has_bits() && !y.has_bits()) {
    if (z3::eq(x.fp_, y.fp_)) return x;
    return Sym(z3::ite(c, x.fp_, y.fp_), std::nullopt);
  }
  if (z3::eq(x.fp_, y.fp_) && z3::eq(x.bits(), y.bits())) return x;
  return Sym(z3::ite(c, x.fp_, y.fp_), z3::ite(c, x.bits(), y.bits()));
}

Sym operator+(const Sym& a, const Sym& b) {
  return Sym::computed(build_add(a.fp(), b.fp()));
}
Sym operator-(const Sym& a, const Sym& b) {
  return Sym::computed(build_sub(a.fp(), b.fp()));
}
Sym operator*(const Sym& a, const Sym& b) {
  return Sym::computed(build_mul(a.fp(), b.fp()));
}
Sym operator/(const Sym& a, const Sym& b) {
  return rounded(Z3_mk_fpa_div, a, b);
}
Sym operator-(const Sym& a) {
  const z3::expr flipped = a.bits() ^ a.bits().ctx().bv_val(format().sign_bit(), format().width());
  return Sym::from_bits(flipped.simplify());
}
SymBool operator==(const Sym& a, const Sym& b) {
  return compared(Z3_mk_fpa_eq, a, b);
}
SymBool operator!=(const Sym& a, const Sym& b) {
  return SymBool(!(a == b).expr());
}
SymBool operator<(const Sym& a, const Sym& b) {
  return compared(Z3_mk_fpa_lt, a, b);
}
SymBool operator<=(const Sym& a, const Sym& b) {
  return compared(Z3_mk_fpa_leq, a, b);
}
SymBool operator>(const Sym& a, const Sym& b) {
  return compared(Z3_mk_fpa_gt, a, b);
}
SymBool operator>=(const Sym& a, const Sym& b) {
  return compared(Z3_mk_fpa_geq, a, b);
}

Sym fused_mul_add(const Sym& a, const Sym& b, const Sym& c) {
  return Sym::computed(build_fma(a.fp(), b.fp(), c.fp()));
}

}  // namespace osvs::formal
