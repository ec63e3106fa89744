#include "osvs/formal/domain.h"

#include <bit>

#include "osvs/formal/context.h"
#include "osvs/kernels/hex.h"

namespace osvs::formal {

std::string Domain::name() const {
  std::string n;
  const auto add = [&](bool on, const char* what) {
    if (on) n += (n.empty() ? "" : " + ") + std::string(what);
  };
  add(well_formed, "well_formed");
  add(d_sign_clear, "d_sign_clear");
  add(no_nan, "no_nan");
  add(finite, "finite");
  add(partial, "partial");
  const auto values = [&](const std::vector<float>& v, const char* what) {
    if (v.empty()) return;
    std::string list;
    for (float x : v) list += (list.empty() ? "" : ", ") + hex(x);
    n += (n.empty() ? "" : " + ") + std::string(what) + " in {" + list + "}";
  };
  values(m_values, "m");
  values(fixed_m, "(a.m, b.m) =");
  values(d_values, "d");
  return n.empty() ? "every" : n;
}

z3::expr Domain::contains(const SymState& s) const {
  z3::context& z = s.m.fp().ctx();
  const Format& f = active().format();
  const unsigned w = f.width();
  const z3::expr canonical_nan = z.bv_val(f.canonical_nan_bits(), w);
  const z3::expr nan_state = s.m.bits() == canonical_nan && s.d.bits() == canonical_nan;
  const z3::expr minus_inf = fp_constant(z, -__builtin_huge_valf());
  const z3::expr zero = fp_constant(z, 0.0f);
  z3::expr c = z.bool_val(true);
  if (well_formed) {
    const z3::expr ordinary = !s.m.fp().mk_is_nan() &&
                              z3::expr(z, Z3_mk_fpa_geq(z, s.d.fp(), zero)) &&
                              (!z3::expr(z, Z3_mk_fpa_eq(z, s.m.fp(), minus_inf)) ||
                               z3::expr(z, Z3_mk_fpa_eq(z, s.d.fp(), zero)));
    c = c && (nan_state || ordinary);
  }
  if (d_sign_clear) c = c && (nan_state || s.d.bits().extract(w - 1, w - 1) == z.bv_val(0, 1));
  if (no_nan) c = c && !nan_state && !s.m.fp().mk_is_nan() && !s.d.fp().mk_is_nan();
  if (finite) c = c && !s.m.fp().mk_is_inf() && !s.d.fp().mk_is_inf();
  if (partial) {
    const z3::expr lse = s.m.fp(), o_bits = s.d.bits();
    const z3::expr plus_inf = fp_constant(z, __builtin_huge_valf());
    const z3::expr ordinary =
        !lse.mk_is_nan() && !z3::expr(z, Z3_mk_fpa_eq(z, lse, plus_inf)) &&
        (!z3::expr(z, Z3_mk_fpa_eq(z, lse, minus_inf)) || o_bits == z.bv_val(0u, w));
    c = c && (nan_state || ordinary);
  }
  const auto one_of = [&](const std::vector<float>& v, const z3::expr& bits) {
    if (v.empty()) return;
    z3::expr any = z.bool_val(false);
    for (float x : v) any = any || bits == z.bv_val(f.bits_of(x), w);
    c = c && any;
  };
  one_of(m_values, s.m.bits());
  one_of(d_values, s.d.bits());
  return c;
}

}  // namespace osvs::formal
