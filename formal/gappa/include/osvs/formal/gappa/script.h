// A Gappa script as the generator builds it: definitions, hypotheses and goals, each one line of
// Gappa's language, and the comments that say where each came from. Numbers are written exactly
// (hex floats; Gappa reads them as the dyadic rationals they are), never rounded to decimal.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace osvs::formal::gappa {

/// The exact text of a double for Gappa ("0x1.8p+3", "-0x1p-150"; 0 is "0").
std::string number(double x);

/// An interval [lo, hi] for a hypothesis or a goal; lo and hi are Gappa numbers.
struct Interval {
  std::string lo, hi;
};

/// [-x, x] for a double x >= 0.
Interval symmetric(double x);

struct Script {
  explicit Script(std::string stem) : name(std::move(stem)) {}

  std::string
      name;  ///< file stem, e.g. combine_scaled.fma.six.s1b2.e1 (step, form, gap, states, E)
  std::vector<std::string> comments;
  std::vector<std::string> definitions;  ///< "t_s = rnd(m_s - m);"
  std::vector<std::string> hypotheses;   ///< "k_s in [lo, hi]"
  std::vector<std::string> goals;        ///< "|d - D| <= bound"
  /// Rewriting hints after the goal, "a -> b { z <> 0 };": Gappa checks that a = b (under the
  /// conditions) before it uses b, so a hint can guide a proof but never make a false one.
  std::vector<std::string> hints;

  void define(const std::string& name, const std::string& expr);
  void hypothesis(const std::string& term, const Interval& in);
  /// |term| <= bound.
  void goal_abs(const std::string& term, const std::string& bound);
  /// from -> to, under the conditions "x <> 0" (comma-separated; empty: none).
  void hint(const std::string& from, const std::string& to, const std::string& conditions = "");
  /// The whole script: "@rnd = float<ieee_32, ne>;", the definitions, "{ hyps -> goals }".
  std::string text() const;
};

}  // namespace osvs::formal::gappa
