// The CPU model's executor of the combine grid: the entry's host.combine on every host thread.
// Each thread takes a contiguous share of the pair indices and runs every pass over it, so its
// examples come in grid order (pass, index) within its share; the merge sorts them.
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "osvs/exhaustive/grid/grid_run.h"
#include "osvs/exhaustive/grid/mpfr_one_step.h"
#include "osvs/kernels/combine_operator.h"
#include "osvs/kernels/exp.h"

namespace osvs::exhaustive::grid {
namespace {

using Combine = State (*)(State, State);

void run_share(Combine combine, const GridSpec& spec, double exp_ulp, std::uint64_t lo,
               std::uint64_t hi, GridTally& t) {
  for (std::uint32_t pass = spec.first_pass; pass < spec.first_pass + spec.passes; ++pass)
    for (std::uint64_t j = lo; j < hi; ++j) {
      const std::uint64_t i = spec.first + j * spec.stride;
      const GridPair p = grid_pair(i, pass);
      const State ab = combine(p.a, p.b), ba = combine(p.b, p.a);
      bool by_mpfr = false;
      const PairOutcome o = check_pair_decided(p, ab, ba, exp_ulp, false, &by_mpfr);
      t.count_pair(p, o);
      if (o.bits != 0) t.note_pair(pass, i, p, ab, ba, o, exp_ulp, by_mpfr);
      if (o.bound_domain && o.ratio > t.worst_ratio)
        t.note_ratio(pass, i, p, ab, ba, o.ratio, exp_ulp);
    }
}

void run_states(const CombineHostOps& host, GridTally& t) {
  const State e = host.initial(), f = seed_initial_state();
  for (std::uint64_t s = 0; s < kGridStates; ++s) {
    const GridState g = grid_state(s);
    const State es = host.combine(e, g.s), se = host.combine(g.s, e);
    const State fs = host.combine(f, g.s), sf = host.combine(g.s, f);
    const StateOutcome o = check_state(g.s, es, se, fs, sf);
    t.count_state(g, o);
    if (o.bits != 0) t.note_state(s, g, e, o, es, se, fs, sf);
  }
  t.count_initial(e, host.combine(e, e));
}

}  // namespace

GridResult run_grid_on_host(CombineKind op, const GridSpec& spec) {
  spec.validate();
  const auto start = std::chrono::steady_clock::now();
  const double exp_ulp = spec.exp_ulp >= 0 ? spec.exp_ulp : kexp_max_ulp(false);
  GridResult r = empty_result(op, spec, "cpu", exp_ulp);
  const CombineHostOps& host = op.op().host;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = static_cast<unsigned>(std::clamp<std::uint64_t>(
      spec.threads ? spec.threads : hw, 1, std::max<std::uint64_t>(spec.count, 1)));
  std::vector<GridTally> tallies(threads, GridTally(spec.examples));
  std::vector<std::thread> workers;
  for (unsigned k = 0; k < threads; ++k) {
    const std::uint64_t lo = spec.count * k / threads, hi = spec.count * (k + 1) / threads;
    workers.emplace_back(run_share, host.combine, std::cref(spec), exp_ulp, lo, hi,
                         std::ref(tallies[k]));
  }
  for (std::thread& w : workers) w.join();
  GridTally total(spec.examples);
  for (const GridTally& t : tallies) total.merge(t);
  if (spec.states) run_states(host, total);
  r.initial_twice = host.combine(r.initial, r.initial);
  take_tally(r, total, op);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace osvs::exhaustive::grid
