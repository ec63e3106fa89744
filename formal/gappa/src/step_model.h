// The pieces every one-step script is made of (one_step.cpp): the exp step under its figure, the
// inputs within their error bounds, the step's float computation, and the goal with the C++
// bound. A scaled script multiplies every state by a real lam in [1, kScaleMax].
#pragma once

#include <string>

#include "error_terms.h"
#include "osvs/formal/gappa/script.h"
#include "points.h"

namespace osvs::formal::gappa::detail {

/// The exp step of one side: e_<s> = kexp(t_<s>), t_<s> = fl(m_<s> - m), under the exp figure,
/// against eg_<s> = e^(m_<s> - m). Returns the Gappa term of e_hat ("1" for a gap of 0).
std::string exp_step(Script& s, const std::string& side, float m_side, float m, double exp_ulp);

/// d_<side>: every value the kernel's d_hat may hold, D + de_<side> with |de_<side>| <= err; in
/// a scaled script lam (D + de_<side>), the unscaled value named v_<side>.
void state_input(Script& s, const std::string& side, const StatePoint& p, bool scaled);

/// The float computations of the steps over d_s, d_b and the exp term e (rounded nodes named).
enum class Form {
  Rescale,  ///< p = d_s e; P = fl(p)
  Rounded,  ///< p = d_s e; P = fl(p); z = P + d_b; d = fl(z)       (--fmad=false)
  Fused,    ///< z = d_s e + d_b; d = fl(z)                          (one fma)
  Add,      ///< z = d_s + d_b; d = fl(z)                            (a tie, the 3-pass sum)
};
/// Defines the computation; returns the name of its result ("P" or "d").
std::string float_model(Script& s, Form f, const std::string& e);

/// |result - (exact)| <= bound: the C++ bound, times arithmetic_safety(1) when `safety`.
void point_goal(Script& s, const std::string& result, const std::string& exact, double bound,
                bool safety);

/// The scaled goal |(result - Dx) / lam| <= bound, Dx = lam (exact), with the hints that split
/// it into the relative errors of the roundings of form f (every rounded result normal).
void scaled_goal(Script& s, Form f, const std::string& e, const std::string& result,
                 const std::string& exact, double bound, bool safety);

/// D e^g for the side whose exp term is e ("1": g = 0).
std::string exact_scaled(double D, const std::string& side, const std::string& e);

/// "e1", "e2", "e0.939": the exp figure in a script's name.
std::string figure_name(double exp_ulp);

/// The default charges, or with the charge `halved` halved (one of charge_names()).
oracle::detail::StepCharges charges_for(const std::string& halved);

}  // namespace osvs::formal::gappa::detail
