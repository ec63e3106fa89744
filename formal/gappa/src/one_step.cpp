// The parameter points and the float model of each one-step bound (one_step.h). The bound of
// each script is the oracle's own function, called with the charges of the run.
#include "osvs/formal/gappa/one_step.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "error_algebra.h"
#include "osvs/formal/gappa/enclosure.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/hex.h"
#include "output_error.h"

namespace osvs::formal::gappa {
namespace {

using oracle::detail::AccState;
using oracle::detail::StepCharges;

/// A state of the accounting as a script's input: the float m, the exact D and err >= |d_hat - D|.
struct StatePoint {
  double D;
  double err;
};

/// The smaller side's m and the result's m: gaps from a tie to beyond kFarGap, arguments whose
/// rounding is exact and inexact, exp results normal, subnormal, and below 2^-149.
struct GapPoint {
  std::string name;
  float small, big;
};
const GapPoint kGaps[] = {
    {"tie", 1.5f, 1.5f},               // g = 0: e = kexp(+-0) = 1 exactly
    {"tiny", -0x1.0c6f7ap-20f, 0.0f},  // g ~ -1e-6: fl(g) = g
    {"quarter", 0.75f, 1.0f},          // g = -0.25
    {"six", -3.1f, 2.7f},              // g ~ -5.8, fl(g) inexact
    {"sixty_four", -40.3f, 23.9f},     // g ~ -64.2
    {"subnormal", -87.7f, 0.0f},       // e^g ~ 8e-39: a subnormal exp result
    {"deep", -95.5f, 0.0f},            // e^g ~ 3e-42: products below the normal range
    {"below_ulp", -100.25f, 3.5f},     // e^g ~ 9e-46 < 2^-149: e_hat is 0 or 2^-149
    {"far", -150.0f, 60.5f},           // g = -210.5 > kFarGap: absolute terms only
};

/// The fixed gaps, then a sweep: g = -1.2345 2^(2i - 16), i = 0 ... 13 (from -1.9e-5 to -1264),
/// from a larger m that moves with i, so that fl(g) is inexact for most of them.
std::vector<GapPoint> gaps() {
  std::vector<GapPoint> out(std::begin(kGaps), std::end(kGaps));
  for (int i = 0; i < 14; ++i) {
    const float big = 0.3f + 7.1f * static_cast<float>(i);
    const float small = big - static_cast<float>(std::ldexp(1.2345, 2 * i - 16));
    out.push_back({"sweep" + std::to_string(i), small, big});
  }
  return out;
}

/// (D, err) pairs: a lifted element (1, 0), partial sums with accumulated errors (tens of u
/// relative, as after a few levels of a block's tree), and a state far less accurate (2^-10).
constexpr double kU = 0x1p-24;
constexpr StatePoint kStates[] = {
    {1.0, 0.0}, {1000.3, 37 * kU * 1000.3}, {3.1e6, 90 * kU * 3.1e6}, {7.5, 0x1p-10 * 7.5}};
/// Pairs of (smaller side, larger side) states for a combine.
constexpr int kStatePairs[][2] = {{0, 0}, {1, 2}, {2, 0}, {3, 1}};
/// (state, rho) pairs of the output step: D and d_hat's relative error rho.
constexpr double kRhos[] = {0.0, 10 * kU, 300 * kU, 0x1p-10};

StepCharges charges_for(const std::string& halved) {
  StepCharges c;
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

/// "e1", "e2", "e0.939": the exp figure in a script's name.
std::string figure_name(double exp_ulp) {
  return "e" + digits9(exp_ulp);
}

/// The exp step of one side: e_<s> = kexp(t_<s>), t_<s> = fl(m_<s> - m), under the exp figure,
/// against eg_<s> = e^(m_<s> - m). Returns the Gappa term of e_hat ("1" for a gap of 0).
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

/// d_<s> = D + de_<s>, |de_<s>| <= err: every value the kernel's d_hat may hold.
std::string state_input(Script& s, const std::string& side, const StatePoint& p) {
  s.define("d_" + side, number(p.D) + " + de_" + side);
  s.hypothesis("de_" + side, symmetric(p.err));
  s.comments.push_back("side " + side + ": D = " + readable(p.D) + ", err = " + readable(p.err));
  return "d_" + side;
}

Script start(const std::string& name) {
  Script s;
  s.name = name;
  return s;
}

/// Whether the goals carry the oracle's factor for evaluating a bound in double
/// (arithmetic_safety of a path of one step), as every bound the oracle states does.
struct Goal {
  bool safety;
  void operator()(Script& s, const std::string& computed, const std::string& exact,
                  double bound) const {
    s.comments.push_back("bound (the C++ algebra): " + readable(bound));
    if (safety) {
      bound *= oracle::detail::arithmetic_safety(1);
      s.comments.push_back("times arithmetic_safety(1) (evaluating it in double): " +
                           readable(bound));
    }
    s.goal_abs(computed + " - (" + exact + ")", number(bound));
  }
};

/// D e^g for the side whose exp term is e ("1": g = 0).
std::string exact_scaled(double D, const std::string& side, const std::string& e) {
  return e == "1" ? number(D) : number(D) + " * eg_" + side;
}

void exp_term_scripts(std::vector<Script>& out, const StepCharges& c, double E, Goal bound_goal) {
  for (const GapPoint& p : gaps()) {
    if (p.small == p.big) continue;  // kexp(0) = 1 exactly: no error to prove
    Script s = start("exp_term." + std::string(p.name) + "." + figure_name(E));
    const std::string e = exp_step(s, "x", p.small, p.big, E);
    const double g = static_cast<double>(p.small) - static_cast<double>(p.big);
    const double bound = oracle::detail::charged_term(g, oracle::detail::exp_error(g, E, c)).err;
    bound_goal(s, e, "eg_x", bound);
    out.push_back(std::move(s));
  }
}

void rescale_scripts(std::vector<Script>& out, const StepCharges& c, double E, Goal bound_goal) {
  for (const GapPoint& p : gaps()) {
    if (p.small == p.big) continue;  // d_hat * 1 is exact
    for (std::size_t k = 0; k < std::size(kStates); ++k) {
      Script s =
          start("rescale." + std::string(p.name) + ".s" + std::to_string(k) + "." + figure_name(E));
      const std::string e = exp_step(s, "s", p.small, p.big, E);
      const std::string d = state_input(s, "s", kStates[k]);
      s.define("P", "rnd(" + d + " * " + e + ")");
      const AccState st{p.small, kStates[k].D, kStates[k].err, false};
      bound_goal(s, "P", exact_scaled(kStates[k].D, "s", e),
                 oracle::detail::rescale(st, p.big, E, c).err);
      out.push_back(std::move(s));
    }
  }
}

/// fused: fma(d_s, e, d_b), the hardened combine and the seed's left side under --fmad=true;
/// otherwise fl(fl(d_s e) + d_b), every operation rounded (--fmad=false, the seed's right side).
void combine_scripts(std::vector<Script>& out, const StepCharges& c, double E, bool fused,
                     Goal bound_goal) {
  for (const GapPoint& p : gaps()) {
    if (p.small == p.big && fused) continue;  // a tie: fl(d_a + d_b) in either form
    for (const auto& pair : kStatePairs) {
      const StatePoint& a = kStates[pair[0]];
      const StatePoint& b = kStates[pair[1]];
      const char* form = p.small == p.big ? "tie" : fused ? "fma" : "rounded";
      Script s =
          start("combine." + std::string(form) + "." + p.name + ".s" + std::to_string(pair[0]) +
                "b" + std::to_string(pair[1]) + "." + figure_name(E));
      const std::string e = exp_step(s, "s", p.small, p.big, E);
      const std::string ds = state_input(s, "s", a), db = state_input(s, "b", b);
      const std::string product = ds + " * " + e;
      s.define("d", fused || e == "1" ? "rnd(" + product + " + " + db + ")"
                                      : "rnd(rnd(" + product + ") + " + db + ")");
      const AccState sa{p.small, a.D, a.err, false}, sb{p.big, b.D, b.err, false};
      bound_goal(s, "d", exact_scaled(a.D, "s", e) + " + " + number(b.D),
                 oracle::detail::combine_acc(sa, sb, E, c).err);
      out.push_back(std::move(s));
    }
  }
}

void sum_scripts(std::vector<Script>& out, const StepCharges& c, Goal bound_goal) {
  for (const auto& pair : kStatePairs) {
    const StatePoint& a = kStates[pair[0]];
    const StatePoint& b = kStates[pair[1]];
    Script s = start("sum.s" + std::to_string(pair[0]) + "b" + std::to_string(pair[1]));
    const std::string da = state_input(s, "a", a), db = state_input(s, "b", b);
    s.define("d", "rnd(" + da + " + " + db + ")");
    bound_goal(s, "d", number(a.D) + " + " + number(b.D),
               oracle::detail::rounded_sum_err(a.D + b.D, a.err, b.err, c));
    out.push_back(std::move(s));
  }
}

void output_scripts(std::vector<Script>& out, const StepCharges& c, double E, Goal bound_goal) {
  for (const GapPoint& p : gaps()) {
    for (std::size_t k = 0; k < std::size(kStates); ++k) {
      const double D = kStates[k].D, rho = kRhos[k];
      Script s =
          start("output." + std::string(p.name) + ".r" + std::to_string(k) + "." + figure_name(E));
      const std::string e = exp_step(s, "x", p.small, p.big, E);
      // d_hat = D (1 + r), |r| <= rho
      s.define("dh", number(D) + " * (1 + r)");
      s.hypothesis("r", symmetric(rho));
      s.comments.push_back("D = " + readable(D) + ", rho = " + readable(rho));
      s.define("y", "rnd(" + e + " / dh)");
      bound_goal(s, "y", (e == "1" ? std::string("1") : "eg_x") + " / " + number(D),
                 oracle::detail::output_error(p.small, p.big, D, rho, E, c));
      out.push_back(std::move(s));
    }
  }
}

}  // namespace

const std::vector<std::string>& charge_names() {
  static const std::vector<std::string> names{"round_rel", "round_abs", "arg_rel",
                                              "exp_rel_per_ulp", "exp_abs_per_ulp"};
  return names;
}

std::vector<double> exp_figures() {
  std::vector<double> f{kexp_max_ulp(false), kexp_max_ulp(true)};
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  return f;
}

std::vector<Script> one_step_scripts(const std::string& halved, bool safety) {
  const StepCharges c = charges_for(halved);
  const Goal goal{safety};
  std::vector<Script> out;
  for (double E : exp_figures()) {
    exp_term_scripts(out, c, E, goal);
    rescale_scripts(out, c, E, goal);
    combine_scripts(out, c, E, false, goal);
    combine_scripts(out, c, E, true, goal);
    output_scripts(out, c, E, goal);
  }
  sum_scripts(out, c, goal);
  if (!halved.empty())
    for (Script& s : out) s.comments.push_back("PLANTED: the charge " + halved + " halved");
  return out;
}

}  // namespace osvs::formal::gappa
