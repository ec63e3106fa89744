#include "osvs/formal/law.h"

#include <cmath>
#include <utility>

#include "osvs/kernels/hex.h"

namespace osvs::formal {
namespace {

constexpr std::pair<Law, const char*> kLawNames[] = {
    {Law::Commutativity, "commutativity"},
    {Law::IdentityLeft, "identity_left"},
    {Law::IdentityRight, "identity_right"},
    {Law::IdentityOfIdentity, "identity_of_identity"},
};

std::string text(State s) {
  const auto one = [](float x) { return std::isnan(x) ? readable(x) : hex(x); };
  return "(" + one(s.m) + ", " + one(s.d) + ")";
}

}  // namespace

const char* to_string(Law law) {
  for (const auto& [l, n] : kLawNames)
    if (l == law) return n;
  return "?";
}

std::optional<Law> parse_law(std::string_view name) {
  for (const auto& [l, n] : kLawNames)
    if (name == n) return l;
  return std::nullopt;
}

std::string describe(const ProofResult& r) {
  std::string s = r.op + " " + to_string(r.law) + " over " + r.domain + ": ";
  if (r.proven)
    return s + "proven (" + digits9(r.seconds) + " s, " + std::to_string(r.paths) + " paths)";
  if (!r.counterexample) return s + "not proven";
  const Counterexample& c = *r.counterexample;
  s += c.reproduced ? "COUNTEREXAMPLE"
                    : "counterexample of the model only (not on this machine's exp / log)";
  s += " a = " + text(c.a);
  if (r.law == Law::Commutativity) s += ", b = " + text(c.b);
  if (c.identity_from_model) s += ", identity = " + text(c.b);
  s += ": " + text(c.lhs) + " vs " + text(c.rhs);
  for (const ExpValue& v : c.exps)
    s += "; " + v.function + "(" + hex(v.argument) + ") model " + hex(v.model) + ", host " +
         hex(v.host);
  return s + " (" + digits9(r.seconds) + " s, " + std::to_string(c.refinements) + " refinements)";
}

}  // namespace osvs::formal
