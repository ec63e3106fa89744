// What a run of the combine grid finds for one operator, and the tally both executors fill.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "osvs/exhaustive/grid/grid_check.h"

namespace osvs::exhaustive::grid {

/// Which part of the grid to run: pairs first, first + stride, ... (count of them) in each pass
/// first_pass .. first_pass + passes - 1 (grid_space.h), and every state for the identity laws.
struct GridSpec {
  std::uint64_t first = 0;
  std::uint64_t count = kGridPairs;
  std::uint64_t stride = 1;
  std::uint32_t first_pass = 0;
  std::uint32_t passes = 1;
  bool states = true;        ///< also the identity laws over every grid state
  std::size_t examples = 8;  ///< first counterexamples kept per law (and outside each domain)
  unsigned threads = 0;      ///< host threads (0: all)
  double exp_ulp = -1;       ///< the exp accuracy of the bound; < 0: kexp_max_ulp of the executor

  /// Every pair index of a pass (whatever the passes).
  bool every_pair() const { return first == 0 && stride == 1 && count == kGridPairs; }
  /// Throws std::invalid_argument when the range leaves the grid or passes exceed kDPairs.
  void validate() const;
  std::string describe() const;
};

/// One counterexample (or difference outside a law's domain). A pair law: a, b the operands,
/// r1 = a (+) b, r2 = b (+) a. A state law: a = s, b = the identity tried, r1 = b (+) s,
/// r2 = s (+) b. The bound law also: the double reference T_ref, B and err / B.
struct Counterexample {
  std::uint32_t pass = 0;
  std::uint64_t index = 0;  ///< pair index, or state index for a state law
  State a{}, b{}, r1{}, r2{};
  double reference = 0, bound = 0, ratio = 0;
  bool decided_by_mpfr = false;
};

struct LawResult {
  Law law = Law::Commutativity;
  bool held = false;          ///< claimed by the operator (or held by every one): a violation fails
  std::uint64_t checked = 0;  ///< inside the law's domain
  std::uint64_t violations = 0;  ///< inside the domain
  std::uint64_t outside = 0;     ///< compared outside the domain (not for the bound)
  std::uint64_t outside_differences = 0;
  std::uint64_t undecided = 0;        ///< the bound: verdicts the double reference left to MPFR
  std::vector<std::uint64_t> by_key;  ///< violations per classification key
  std::vector<std::uint64_t> outside_by_key;  ///< outside differences per key
  std::vector<Counterexample> first, first_outside;
};

struct GridResult {
  std::string combine;
  std::string original;  ///< a mutant's original ("" for a real operator)
  std::string defect;    ///< a mutant's defect
  std::string executor;  ///< "cpu" or "cuda"
  std::string device;    ///< the device (cuda) or the CPU (cpu)
  double exp_ulp = 0;
  GridSpec spec;
  std::array<LawResult, kLaws> laws;
  State initial{}, initial_twice{};  ///< e and e (+) e (the identity law requires them equal)
  double worst_ratio = 0;            ///< largest err / B in the bound's domain
  Counterexample worst;
  double seconds = 0;

  LawResult& law(Law l) { return laws[static_cast<int>(l)]; }
  const LawResult& law(Law l) const { return laws[static_cast<int>(l)]; }
  /// No violation of a held law.
  bool passed() const;
};

const char* to_string(Law l);
/// "state" laws are judged per grid state, the others per pair.
bool is_state_law(Law l);
/// The words of a classification key: "m1 normal, m2 NaN, d1 = 1, d2 = +inf" / "m +-0, d = 0".
std::string key_label(Law l, int key);
const char* d_name(int k);
const char* m_class_name(int c);

/// Counts and first examples of one executor's share of the grid. Examples are kept in the
/// order they are noted (the executors note in grid order: pass, then index).
class GridTally {
 public:
  explicit GridTally(std::size_t examples);

  void count_pair(const GridPair& p, const PairOutcome& o);
  void count_state(const GridState& g, const StateOutcome& o);
  /// Keeps the pair's counterexamples while fewer than `examples` are kept per law.
  void note_pair(std::uint32_t pass, std::uint64_t index, const GridPair& p, State ab, State ba,
                 const PairOutcome& o, double exp_ulp, bool decided_by_mpfr);
  void note_state(std::uint64_t index, const GridState& g, State e, const StateOutcome& o, State es,
                  State se, State fs, State sf);
  /// e (+) e == e, counted as one more check of the identity law (index kGridStates).
  void count_initial(State e, State ee);
  void note_ratio(std::uint32_t pass, std::uint64_t index, const GridPair& p, State ab, State ba,
                  double ratio, double exp_ulp);
  /// Whether notes of this law (inside / outside the domain) are still wanted.
  bool wants(Law l, bool inside) const;

  /// Adds `other` (a later share of the grid: its examples go after this one's, then the first
  /// `examples` are kept).
  void merge(const GridTally& other);
  /// Sorts examples into grid order (pass, index) and keeps the first `examples`.
  void finish();

  std::array<LawResult, kLaws> laws;
  double worst_ratio = 0;
  Counterexample worst;

  LawResult& law(Law l) { return laws[static_cast<int>(l)]; }
  const LawResult& law(Law l) const { return laws[static_cast<int>(l)]; }

 private:
  std::size_t examples_;
};

/// Counterexample of a pair for the bound law: T_ref, B and the ratio filled in.
Counterexample bound_example(std::uint32_t pass, std::uint64_t index, const GridPair& p, State ab,
                             State ba, double exp_ulp);

}  // namespace osvs::exhaustive::grid
