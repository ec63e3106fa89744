#include "step_model.h"

#include <stdexcept>

#include "osvs/formal/gappa/enclosure.h"
#include "osvs/kernels/hex.h"

namespace osvs::formal::gappa::detail {

std::string exp_step(Script& s, const std::string& side, float m_side, float m, double exp_ulp) {
  if (m_side == m) return "1";  // kexp(+-0) = 1 exactly (formal.exp_facts checks it)
  const std::string t = "t_" + side, g = "g_" + side, k = "k_" + side, eg = "eg_" + side;
  const std::string xr = "xr_" + side, xa = "xa_" + side, e = "e_" + side;
  s.define("m", number(m));
  s.define("m_" + side, number(m_side));
  s.define(g, "m_" + side + " - m");
  s.define(t, "rnd(m_" + side + " - m)");
  s.define(e, eg + " * (1 + " + k + ") * (1 + " + xr + ") + " + xa);
  s.hypothesis(eg, exp_of_difference(m_side, m));
  // e^t / e^g = e^(t - g) - 1 = k, |t - g| <= u |g| (proven below, the argument's rounding)
  s.hypothesis(k, expm1_of_argument_error(m_side, m, kU));
  s.goal_abs(t + " - " + g, scaled_gap(m_side, m, kU));
  // E ulps of e^t: 2^-23 E relative (a normal result), 2^-149 E absolute (a subnormal one)
  s.hypothesis(xr, symmetric(exp_ulp * 0x1p-23));
  s.hypothesis(xa, symmetric(exp_ulp * 0x1p-149));
  s.comments.push_back("side " + side + ": m = " + readable(m_side) + ", exp within " +
                       digits9(exp_ulp) + " ulp");
  return e;
}

void state_input(Script& s, const std::string& side, const StatePoint& p, bool scaled) {
  const std::string d = "d_" + side, v = "v_" + side, de = "de_" + side;
  if (scaled) {
    s.define(v, number(p.D) + " + " + de);
    s.define(d, "lam * " + v);
  } else {
    s.define(d, number(p.D) + " + " + de);
  }
  s.hypothesis(de, symmetric(p.err));
  s.comments.push_back("side " + side + ": D = " + readable(p.D) + ", err = " + readable(p.err) +
                       (scaled ? ", both times lam" : ""));
}

std::string float_model(Script& s, Form f, const std::string& e) {
  switch (f) {
    case Form::Rescale:
      s.define("p", "d_s * " + e);
      s.define("P", "rnd(p)");
      return "P";
    case Form::Rounded:
      s.define("p", "d_s * " + e);
      s.define("P", "rnd(p)");
      s.define("z", "P + d_b");
      break;
    case Form::Fused:
      s.define("z", "d_s * " + e + " + d_b");
      break;
    case Form::Add:
      s.define("z", "d_s + d_b");
      break;
  }
  s.define("d", "rnd(z)");
  return "d";
}

namespace {

double goal_bound(Script& s, double bound, bool safety) {
  s.comments.push_back("bound (the C++ algebra): " + readable(bound));
  if (!safety) return bound;
  bound *= oracle::detail::arithmetic_safety(1);
  s.comments.push_back("times arithmetic_safety(1) (evaluating it in double): " + readable(bound));
  return bound;
}

}  // namespace

void point_goal(Script& s, const std::string& result, const std::string& exact, double bound,
                bool safety) {
  s.define("Dx", exact);
  s.goal_abs(result + " - Dx", number(goal_bound(s, bound, safety)));
}

void scaled_goal(Script& s, Form f, const std::string& e, const std::string& result,
                 const std::string& exact, double bound, bool safety) {
  s.hypothesis("lam", {"1", number(kScaleMax)});
  s.define("Dx", "lam * (" + exact + ")");
  const std::string goal = "(" + result + " - Dx) / lam";
  s.goal_abs(goal, number(goal_bound(s, bound, safety)));
  // Each rounding X = fl(x) contributes (X - x) / x * (x / lam), a relative error (|.| <= u for
  // a normal x) times a quantity free of lam; the rest is the exact computation on the unscaled
  // inputs v_s, v_b, minus the exact value.
  const std::string vs = e == "1" ? "v_s" : "v_s * " + e;
  const std::string product = "(P - p) / p * (p / lam)";
  const std::string sum = "(d - z) / z * (z / lam)";
  switch (f) {
    case Form::Rescale:
      s.hint(goal, product + " + (" + vs + " - (" + exact + "))", "p <> 0, lam <> 0");
      s.hint("p / lam", vs, "lam <> 0");
      return;
    case Form::Rounded:
      s.hint(goal, sum + " + " + product + " + (" + vs + " + v_b - (" + exact + "))",
             "z <> 0, p <> 0, lam <> 0");
      s.hint("z / lam", product + " + " + vs + " + v_b", "p <> 0, lam <> 0");
      s.hint("p / lam", vs, "lam <> 0");
      return;
    case Form::Fused:
    case Form::Add:
      s.hint(goal, sum + " + (" + vs + " + v_b - (" + exact + "))", "z <> 0, lam <> 0");
      s.hint("z / lam", vs + " + v_b", "lam <> 0");
      return;
  }
}

std::string exact_scaled(double D, const std::string& side, const std::string& e) {
  return e == "1" ? number(D) : number(D) + " * eg_" + side;
}

std::string figure_name(double exp_ulp) {
  return std::string("e").append(digits9(exp_ulp));  // not "e" + ...: GCC 12's -Wrestrict
}

oracle::detail::StepCharges charges_for(const std::string& halved) {
  oracle::detail::StepCharges c;
  if (halved.empty()) return c;
  double* field = halved == "round_rel"         ? &c.round_rel
                  : halved == "round_abs"       ? &c.round_abs
                  : halved == "arg_rel"         ? &c.arg_rel
                  : halved == "exp_rel_per_ulp" ? &c.exp_rel_per_ulp
                  : halved == "exp_abs_per_ulp" ? &c.exp_abs_per_ulp
                                                : nullptr;
  if (!field) throw std::invalid_argument("gappa: no charge named '" + halved + "'");
  *field /= 2;
  return c;
}

}  // namespace osvs::formal::gappa::detail
