// Implementation of gen/cases.h.
#pragma once

#include "osvs/kernels/block_schedule.h"
#include "osvs/properties/gen/domain.h"
#include "osvs/properties/gen/schedules.h"
#include "osvs/properties/gen/shifts.h"
#include "osvs/properties/gen/states.h"

namespace osvs::gen {

namespace detail {

inline rc::Gen<int> block_size() {
  return rc::gen::elementOf(
      std::vector<int>(std::begin(kSupportedBlocks), std::end(kSupportedBlocks)));
}

inline Case configured(Config cfg, int block) {
  Case c;
  c.kernel = cfg.kernel;
  c.combine = cfg.combine;
  c.block = block;
  c.mutant = cfg.mutant;
  return c;
}

}  // namespace detail

inline rc::Gen<Case> states_case(CombineKind combine, rc::Gen<std::vector<State>> states) {
  return rc::gen::map(std::move(states), [combine](std::vector<State> s) {
    Case c;
    c.combine = combine;
    c.states = std::move(s);
    return c;
  });
}

inline rc::Gen<Case> warp_case(CombineKind combine) {
  return rc::gen::mapcat(finite_row(), [combine](Row row) {
    const auto n = static_cast<std::int64_t>(row.size());
    return rc::gen::map(warp_schedule(n), [combine, row](HarnessCase s) {
      Case c;
      c.combine = combine;
      c.rows = {row};
      c.schedules = {std::move(s)};
      return c;
    });
  });
}

inline rc::Gen<Case> tree_case(CombineKind combine) {
  return rc::gen::mapcat(finite_row(), [combine](Row row) {
    const auto n = static_cast<std::int64_t>(row.size());
    return rc::gen::map(rc::gen::pair(schedule(n), schedule(n)),
                        [combine, row](std::pair<HarnessCase, HarnessCase> s) {
                          Case c;
                          c.combine = combine;
                          c.rows = {row};
                          c.schedules = {std::move(s.first), std::move(s.second)};
                          return c;
                        });
  });
}

inline rc::Gen<Case> softmax_case(Config cfg, rc::Gen<std::vector<Row>> rows) {
  return rc::gen::map(rc::gen::pair(std::move(rows), detail::block_size()),
                      [cfg](std::pair<std::vector<Row>, int> p) {
                        Case c = detail::configured(cfg, p.second);
                        c.rows = std::move(p.first);
                        return c;
                      });
}

inline rc::Gen<Case> permutation_case(Config cfg) {
  return rc::gen::mapcat(
      rc::gen::pair(nonempty_finite_row(), detail::block_size()), [cfg](auto rb) {
        const auto n = static_cast<std::int64_t>(rb.first.size());
        return rc::gen::map(permutation(n), [cfg, rb](std::vector<std::int64_t> perm) {
          Case c = detail::configured(cfg, rb.second);
          c.rows = {rb.first};
          c.permutation = std::move(perm);
          return c;
        });
      });
}

inline rc::Gen<Case> shift_case(Config cfg) {
  return rc::gen::map(rc::gen::pair(shiftable_row(), detail::block_size()),
                      [cfg](std::pair<std::pair<Row, float>, int> p) {
                        Case c = detail::configured(cfg, p.second);
                        c.rows = {std::move(p.first.first)};
                        c.shift = p.first.second;
                        return c;
                      });
}

inline rc::Gen<Case> batch_case(Config cfg) {
  const auto placement =
      rc::gen::mapcat(rc::gen::inRange<std::int64_t>(1, kMaxBatchRows + 1), [](std::int64_t m) {
        return rc::gen::pair(rc::gen::just(m), rc::gen::inRange<std::int64_t>(0, m));
      });
  return rc::gen::map(rc::gen::pair(softmax_case(cfg, special_batch()), placement),
                      [](std::pair<Case, std::pair<std::int64_t, std::int64_t>> p) {
                        p.first.batch_rows = p.second.first;
                        p.first.batch_position = p.second.second;
                        return p.first;
                      });
}

}  // namespace osvs::gen
