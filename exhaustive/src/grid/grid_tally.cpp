// The tally of a grid run: counts per law and domain side, classification, first examples.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "osvs/exhaustive/grid/grid_result.h"

namespace osvs::exhaustive::grid {

void GridSpec::validate() const {
  if (stride == 0) throw std::invalid_argument("combine grid: stride must be positive");
  if (count > 0 && (first >= kGridPairs || (count - 1) > (kGridPairs - 1 - first) / stride))
    throw std::invalid_argument("combine grid: pair indices beyond 2^32 (first " +
                                std::to_string(first) + ", count " + std::to_string(count) +
                                ", stride " + std::to_string(stride) + ")");
  if (first_pass + static_cast<std::uint64_t>(passes) > static_cast<std::uint64_t>(kDPairs))
    throw std::invalid_argument("combine grid: passes beyond the 49 d pairs");
}

std::string GridSpec::describe() const {
  const std::string pairs = every_pair()
                                ? "every (m1, m2) pair of bf16 values (2^32)"
                                : std::to_string(count) + " (m1, m2) pairs: indices " +
                                      std::to_string(first) + " + k * " + std::to_string(stride);
  const std::string d = passes == static_cast<std::uint32_t>(kDPairs)
                            ? "each with every one of the 49 (d1, d2) pairs"
                            : "each with " + std::to_string(passes) + " of the 49 (d1, d2) pairs " +
                                  "(passes " + std::to_string(first_pass) + " to " +
                                  std::to_string(first_pass + passes - 1) + ")";
  return pairs + ", " + d + (states ? "; every grid state (65536 m x 7 d) for the identities" : "");
}

bool GridResult::passed() const {
  for (const LawResult& l : laws)
    if (l.held && l.violations > 0) return false;
  return true;
}

const char* to_string(Law l) {
  constexpr const char* kNames[kLaws] = {"commutativity", "identity", "finite_identity",
                                         "one_step_bound"};  // in Law's order (its index)
  const int i = static_cast<int>(l);
  return i >= 0 && i < kLaws ? kNames[i] : "?";
}

bool is_state_law(Law l) {
  return l == Law::Identity || l == Law::FiniteIdentity;
}

const char* d_name(int k) {
  static const char* const names[kDValues] = {"0",       "2^-149", "1",  "0x1.fffffep+0",
                                              "FLT_MAX", "+inf",   "NaN"};
  return names[k];
}

const char* m_class_name(int c) {
  static const char* const names[kMClasses] = {"NaN", "+inf", "-inf", "+-0", "subnormal", "normal"};
  return names[c];
}

std::string key_label(Law l, int key) {
  if (is_state_law(l))
    return std::string("m ") + m_class_name(key / kDValues) + ", d = " + d_name(key % kDValues);
  const int d2 = key % kDValues, d1 = key / kDValues % kDValues;
  const int c2 = key / kDPairs % kMClasses, c1 = key / kDPairs / kMClasses;
  return std::string("m1 ") + m_class_name(c1) + ", m2 " + m_class_name(c2) +
         ", d1 = " + d_name(d1) + ", d2 = " + d_name(d2);
}

GridTally::GridTally(std::size_t examples) : examples_(examples) {
  for (int i = 0; i < kLaws; ++i) {
    const Law l = static_cast<Law>(i);
    laws[i].law = l;
    const std::size_t keys = is_state_law(l) ? kMClasses * kDValues : kPairKeys;
    laws[i].by_key.assign(keys, 0);
    laws[i].outside_by_key.assign(keys, 0);
  }
}

namespace {

void count(LawResult& law, bool inside, bool differs, int key) {
  if (inside) {
    ++law.checked;
    if (differs) {
      ++law.violations;
      ++law.by_key[static_cast<std::size_t>(key)];
    }
  } else {
    ++law.outside;
    if (differs) {
      ++law.outside_differences;
      ++law.outside_by_key[static_cast<std::size_t>(key)];
    }
  }
}

void keep(std::vector<Counterexample>& v, std::size_t n, const Counterexample& c) {
  if (v.size() < n) v.push_back(c);
}

bool grid_order(const Counterexample& x, const Counterexample& y) {
  return x.pass != y.pass ? x.pass < y.pass : x.index < y.index;
}

}  // namespace

void GridTally::count_pair(const GridPair& p, const PairOutcome& o) {
  const int key = pair_key(p);
  count(law(Law::Commutativity), o.commutativity_domain,
        (o.bits & (kCommutativityViolated | kCommutativityDiffers)) != 0, key);
  if (o.bound_domain) {
    count(law(Law::OneStepBound), true, (o.bits & kBoundViolated) != 0, key);
    if (o.bits & kBoundUndecided) ++law(Law::OneStepBound).undecided;
  } else {
    ++law(Law::OneStepBound).outside;
  }
}

void GridTally::count_state(const GridState& g, const StateOutcome& o) {
  const int key = state_key(g);
  count(law(Law::Identity), o.identity_domain,
        (o.bits & (kIdentityViolated | kIdentityDiffers)) != 0, key);
  count(law(Law::FiniteIdentity), o.finite_identity_domain,
        (o.bits & (kFiniteIdentityViolated | kFiniteIdentityDiffers)) != 0, key);
}

Counterexample bound_example(std::uint32_t pass, std::uint64_t index, const GridPair& p, State ab,
                             State ba, double exp_ulp) {
  const OneStep s = one_step(p.a, p.b, exp_ulp);
  double r1 = 0, r2 = 0;
  judge_step(s, ab, &r1);
  judge_step(s, ba, &r2);
  Counterexample c{pass, index, p.a, p.b, ab, ba};
  c.reference = s.reference;
  c.bound = s.bound;
  c.ratio = std::max(r1, r2);
  return c;
}

void GridTally::note_pair(std::uint32_t pass, std::uint64_t index, const GridPair& p, State ab,
                          State ba, const PairOutcome& o, double exp_ulp, bool decided_by_mpfr) {
  const Counterexample c{pass, index, p.a, p.b, ab, ba};
  LawResult& comm = law(Law::Commutativity);
  if (o.bits & kCommutativityViolated) keep(comm.first, examples_, c);
  if (o.bits & kCommutativityDiffers) keep(comm.first_outside, examples_, c);
  if (o.bits & kBoundViolated) {
    Counterexample b = bound_example(pass, index, p, ab, ba, exp_ulp);
    b.decided_by_mpfr = decided_by_mpfr;
    keep(law(Law::OneStepBound).first, examples_, b);
  }
}

void GridTally::note_state(std::uint64_t index, const GridState& g, State e, const StateOutcome& o,
                           State es, State se, State fs, State sf) {
  const State f = seed_initial_state();
  LawResult& id = law(Law::Identity);
  LawResult& fid = law(Law::FiniteIdentity);
  const Counterexample ce{0, index, g.s, e, es, se};
  const Counterexample cf{0, index, g.s, f, fs, sf};
  if (o.bits & kIdentityViolated) keep(id.first, examples_, ce);
  if (o.bits & kIdentityDiffers) keep(id.first_outside, examples_, ce);
  if (o.bits & kFiniteIdentityViolated) keep(fid.first, examples_, cf);
  if (o.bits & kFiniteIdentityDiffers) keep(fid.first_outside, examples_, cf);
}

void GridTally::count_initial(State e, State ee) {
  const GridState g{e, 0};
  StateOutcome o;
  o.identity_domain = well_formed(e);
  if (!bitwise_equal(ee, e)) o.bits = o.identity_domain ? kIdentityViolated : kIdentityDiffers;
  count(law(Law::Identity), o.identity_domain, o.bits != 0, state_key(g));
  const Counterexample c{0, kGridStates, e, e, ee, ee};
  if (o.bits & kIdentityViolated) keep(law(Law::Identity).first, examples_, c);
  if (o.bits & kIdentityDiffers) keep(law(Law::Identity).first_outside, examples_, c);
}

void GridTally::note_ratio(std::uint32_t pass, std::uint64_t index, const GridPair& p, State ab,
                           State ba, double ratio, double exp_ulp) {
  if (ratio <= worst_ratio) return;
  worst_ratio = ratio;
  worst = bound_example(pass, index, p, ab, ba, exp_ulp);
}

bool GridTally::wants(Law l, bool inside) const {
  const LawResult& r = law(l);
  return (inside ? r.first.size() : r.first_outside.size()) < examples_;
}

void GridTally::merge(const GridTally& other) {
  for (int i = 0; i < kLaws; ++i) {
    LawResult& a = laws[i];
    const LawResult& b = other.laws[i];
    a.checked += b.checked;
    a.violations += b.violations;
    a.outside += b.outside;
    a.outside_differences += b.outside_differences;
    a.undecided += b.undecided;
    for (std::size_t k = 0; k < a.by_key.size(); ++k) {
      a.by_key[k] += b.by_key[k];
      a.outside_by_key[k] += b.outside_by_key[k];
    }
    a.first.insert(a.first.end(), b.first.begin(), b.first.end());
    a.first_outside.insert(a.first_outside.end(), b.first_outside.begin(), b.first_outside.end());
  }
  if (other.worst_ratio > worst_ratio ||
      (other.worst_ratio == worst_ratio && other.worst_ratio > 0 &&
       grid_order(other.worst, worst))) {
    worst_ratio = other.worst_ratio;
    worst = other.worst;
  }
}

void GridTally::finish() {
  for (LawResult& l : laws)
    for (std::vector<Counterexample>* v : {&l.first, &l.first_outside}) {
      std::stable_sort(v->begin(), v->end(), grid_order);
      if (v->size() > examples_) v->resize(examples_);
    }
}

}  // namespace osvs::exhaustive::grid
