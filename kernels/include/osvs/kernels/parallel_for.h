// A minimal parallel loop over index ranges on all CPU cores (std::thread; no pool to manage): the
// audit's sweeps and the exact attention of large cases.
#pragma once

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "osvs/kernels/index_loop.h"

namespace osvs {

/// Number of worker threads: the cores this process may run on (its affinity mask, so that
/// `taskset` and container CPU sets are honoured), at least 1.
inline int worker_count() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

/// Calls body(worker, begin, end) on disjoint ranges covering [0, count), `grain` indices at a
/// time (every begin a multiple of grain), from `workers` threads; worker is in [0, workers).
/// Which worker gets which range varies from run to run. The first exception is rethrown.
template <class Body>
void parallel_for(std::int64_t count, int workers, std::int64_t grain, Body&& body) {
  workers = static_cast<int>(std::clamp<std::int64_t>(count / std::max<std::int64_t>(grain, 1) + 1,
                                                      1, std::max(workers, 1)));
  std::atomic<std::int64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto run = [&](int worker) {
    try {
      for (std::int64_t begin; (begin = next.fetch_add(grain)) < count;)
        body(worker, begin, std::min(count, begin + grain));
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = count;  // stop the other workers early
    }
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(run, w);
  run(0);
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

/// An IndexLoop (kernels/index_loop.h) on `workers` threads, one index at a time.
inline IndexLoop index_loop_on(int workers) {
  return [workers](std::int64_t count, const std::function<void(std::int64_t)>& body) {
    parallel_for(count, workers, 1, [&](int, std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) body(i);
    });
  };
}

}  // namespace osvs
