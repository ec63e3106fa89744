// The scripts of each one-step bound (one_step.h) at every parameter point (points.h): the float
// computation and the goal from step_model.h, the bound from the oracle's own function, called
// with the charges of the run.
#include "osvs/formal/gappa/one_step.h"

#include <algorithm>
#include <cmath>

#include "error_algebra.h"
#include "osvs/kernels/exp.h"
#include "osvs/kernels/hex.h"
#include "output_error.h"
#include "step_model.h"

namespace osvs::formal::gappa {
namespace {

using namespace detail;
using oracle::detail::AccState;
using oracle::detail::StepCharges;

/// What every script of a run shares.
struct Run {
  StepCharges charges;
  double exp_ulp;
  bool safety;
};

// (std::string("s").append(...): GCC 12 warns, wrongly, of "s" + std::string, -Wrestrict)
std::string state_name(std::size_t k) {
  return std::string("s").append(std::to_string(k));
}
std::string pair_name(const int (&pair)[2]) {
  return state_name(static_cast<std::size_t>(pair[0])).append("b").append(std::to_string(pair[1]));
}

/// A state times `scale` (1 or kScaleMax, a power of two: exact).
StatePoint times(const StatePoint& p, double scale) {
  return {p.D * scale, p.err * scale};
}

/// Whether d_hat e_hat stays a normal float for every d_hat of the state times every lam >= 1, so
/// that its rounding is relative (the scaled scripts; point scripts cover the rest).
bool product_stays_normal(const StatePoint& p, const GapPoint& gap) {
  const double g = static_cast<double>(gap.small) - static_cast<double>(gap.big);
  return (p.D - p.err) * std::exp(g) * (1 - 0x1p-10) >= 0x1p-125;
}

/// The goal of a step of form f whose C++ bound for the states times `scale` is bound_at(scale):
/// scaled, every lam in [1, kScaleMax] against bound_at(kScaleMax) / kScaleMax (the least of
/// bound(lam) / lam: the bound is affine in lam with a nonnegative constant), or at the point.
template <class BoundAt>
void step_goal(Script& s, Form f, const std::string& e, const std::string& exact, bool scaled,
               const Run& r, BoundAt bound_at) {
  const std::string result = float_model(s, f, e);
  if (scaled)
    scaled_goal(s, f, e, result, exact, bound_at(kScaleMax) / kScaleMax, r.safety);
  else
    point_goal(s, result, exact, bound_at(1.0), r.safety);
}

std::string prefix(const char* step, bool scaled) {
  return std::string(step) + (scaled ? "_scaled." : ".");
}

void exp_term_scripts(std::vector<Script>& out, const Run& r) {
  for (const GapPoint& p : gaps()) {
    if (p.small == p.big) continue;  // kexp(0) = 1 exactly: no error to prove
    Script s{"exp_term." + p.name + "." + figure_name(r.exp_ulp)};
    const std::string e = exp_step(s, "x", p.small, p.big, r.exp_ulp);
    const double g = static_cast<double>(p.small) - static_cast<double>(p.big);
    point_goal(
        s, e, "eg_x",
        oracle::detail::charged_term(g, oracle::detail::exp_error(g, r.exp_ulp, r.charges)).err,
        r.safety);
    out.push_back(std::move(s));
  }
}

/// The rescale of one side (g < 0): scaled where the product stays normal, else at the point.
void rescale_scripts(std::vector<Script>& out, const Run& r) {
  for (const GapPoint& p : gaps()) {
    if (p.small == p.big) continue;  // d_hat * 1 is exact
    for (std::size_t k = 0; k < std::size(kStates); ++k) {
      const StatePoint& a = kStates[k];
      const bool scaled = product_stays_normal(a, p);
      Script s{prefix("rescale", scaled) + p.name + "." + state_name(k) + "." +
               figure_name(r.exp_ulp)};
      const std::string e = exp_step(s, "s", p.small, p.big, r.exp_ulp);
      state_input(s, "s", a, scaled);
      step_goal(s, Form::Rescale, e, exact_scaled(a.D, "s", e), scaled, r, [&](double scale) {
        const StatePoint x = times(a, scale);
        return oracle::detail::rescale({p.small, x.D, x.err, false}, p.big, r.exp_ulp, r.charges)
            .err;
      });
      out.push_back(std::move(s));
    }
  }
}

/// One combine: the fma (the hardened combine and the seed's left side under --fmad=true), every
/// operation rounded (--fmad=false, the seed's right side), and a tie (fl(d_a + d_b) in both).
/// Scaled unless the rounded form's product can leave the normal range.
void combine_scripts(std::vector<Script>& out, const Run& r, Form form) {
  for (const GapPoint& p : gaps()) {
    const bool tie = p.small == p.big;
    if (tie != (form == Form::Add)) continue;
    const char* form_name = tie ? "tie" : form == Form::Fused ? "fma" : "rounded";
    for (const auto& pair : kStatePairs) {
      const StatePoint& a = kStates[pair[0]];
      const StatePoint& b = kStates[pair[1]];
      const bool scaled = form != Form::Rounded || product_stays_normal(a, p);
      Script s{prefix("combine", scaled) + form_name + "." + p.name + "." + pair_name(pair) + "." +
               figure_name(r.exp_ulp)};
      const std::string e = exp_step(s, "s", p.small, p.big, r.exp_ulp);
      state_input(s, "s", a, scaled);
      state_input(s, "b", b, scaled);
      const std::string exact = exact_scaled(a.D, "s", e) + " + " + number(b.D);
      step_goal(s, form, e, exact, scaled, r, [&](double scale) {
        const StatePoint x = times(a, scale), y = times(b, scale);
        return oracle::detail::combine_acc({p.small, x.D, x.err, false}, {p.big, y.D, y.err, false},
                                           r.exp_ulp, r.charges)
            .err;
      });
      out.push_back(std::move(s));
    }
  }
}

/// The 3-pass kernel's sum of two partial sums (always scaled: a sum of states is >= 1, normal).
void sum_scripts(std::vector<Script>& out, const Run& r) {
  for (const auto& pair : kStatePairs) {
    const StatePoint& a = kStates[pair[0]];
    const StatePoint& b = kStates[pair[1]];
    Script s{prefix("sum", true) + pair_name(pair)};
    state_input(s, "s", a, true);
    state_input(s, "b", b, true);
    step_goal(s, Form::Add, "1", number(a.D) + " + " + number(b.D), true, r, [&](double scale) {
      const StatePoint x = times(a, scale), y = times(b, scale);
      return oracle::detail::rounded_sum_err(x.D + y.D, x.err, y.err, r.charges);
    });
    out.push_back(std::move(s));
  }
}

/// The output step: y_hat = fl(e_hat / d_hat), d_hat = D (1 + r), |r| <= rho.
void output_scripts(std::vector<Script>& out, const Run& r) {
  for (const GapPoint& p : gaps())
    for (std::size_t k = 0; k < std::size(kStates); ++k) {
      const double D = kStates[k].D, rho = kRhos[k];
      Script s{"output." + p.name + ".r" + std::to_string(k) + "." + figure_name(r.exp_ulp)};
      const std::string e = exp_step(s, "x", p.small, p.big, r.exp_ulp);
      s.define("dh", number(D) + " * (1 + r)");
      s.hypothesis("r", symmetric(rho));
      s.comments.push_back("D = " + readable(D) + ", rho = " + readable(rho));
      s.define("y", "rnd(" + e + " / dh)");
      point_goal(s, "y", (e == "1" ? std::string("1") : "eg_x") + " / " + number(D),
                 oracle::detail::output_error(p.small, p.big, D, rho, r.exp_ulp, r.charges),
                 r.safety);
      out.push_back(std::move(s));
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
  std::vector<Script> out;
  for (double E : exp_figures()) {
    const Run r{charges_for(halved), E, safety};
    exp_term_scripts(out, r);
    rescale_scripts(out, r);
    combine_scripts(out, r, Form::Rounded);
    combine_scripts(out, r, Form::Fused);
    combine_scripts(out, r, Form::Add);
    output_scripts(out, r);
  }
  sum_scripts(out, {charges_for(halved), 0, safety});
  if (!halved.empty())
    for (Script& s : out) s.comments.push_back("PLANTED: the charge " + halved + " halved");
  return out;
}

}  // namespace osvs::formal::gappa
