#include "osvs/formal/gappa/script.h"

#include <sstream>
#include <stdexcept>

#include "osvs/kernels/hex.h"

namespace osvs::formal::gappa {

std::string number(double x) {
  if (!(x == x) || x == __builtin_huge_val() || x == -__builtin_huge_val())
    throw std::invalid_argument("gappa: no Gappa number for " + readable(x));
  if (x == 0) return "0";
  return hex(x);
}

Interval symmetric(double x) {
  if (!(x >= 0)) throw std::invalid_argument("gappa: a symmetric interval needs x >= 0");
  const std::string hi = number(x);
  return {x == 0 ? hi : std::string("-").append(hi), hi};
}

void Script::define(const std::string& n, const std::string& expr) {
  definitions.push_back(n + " = " + expr + ";");
}

void Script::hypothesis(const std::string& term, const Interval& in) {
  hypotheses.push_back(term + " in [" + in.lo + ", " + in.hi + "]");
}

void Script::goal_abs(const std::string& term, const std::string& bound) {
  goals.push_back("|" + term + "| <= " + bound);
}

void Script::hint(const std::string& from, const std::string& to, const std::string& conditions) {
  hints.push_back(from + " -> " + to + (conditions.empty() ? "" : " { " + conditions + " }") + ";");
}

std::string Script::text() const {
  std::ostringstream s;
  s << "# " << name << "\n";
  for (const std::string& c : comments) s << "# " << c << "\n";
  // Gappa's intervals at 200 bits: at its default 60, e_hat - e^g (e_hat ~ 1, the bound ~ 2^-23)
  // loses 2^-37 of the bound to the interval's own rounding
  s << "#@-Eprecision=200\n";
  s << "@rnd = float<ieee_32, ne>;\n";
  for (const std::string& d : definitions) s << d << "\n";
  s << "{ ";
  for (std::size_t i = 0; i < hypotheses.size(); ++i) s << (i ? "\n  /\\ " : "") << hypotheses[i];
  s << "\n  -> ";
  for (std::size_t i = 0; i < goals.size(); ++i) s << (i ? "\n  /\\ " : "") << goals[i];
  s << " }\n";
  for (const std::string& h : hints) s << h << "\n";
  return s.str();
}

}  // namespace osvs::formal::gappa
