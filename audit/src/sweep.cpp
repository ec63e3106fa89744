#include "osvs/audit/sweep.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "osvs/audit/config_audit.h"
#include "osvs/audit/progress.h"

namespace osvs::audit {
namespace {

/// How many configurations a launcher may run ahead of the judging (each holds its rows and
/// outputs: up to 2^24 elements, 128 MiB, per configuration of the GPU plan).
constexpr std::size_t kLookahead = 2;

/// The progress bar's estimate of a configuration's cost in element-equivalents: its elements,
/// the law cases (about 40 oracle passes over one row) and a fixed cost per launch.
std::int64_t config_work(const Config& c) {
  return c.rows * c.n + (c.n <= kMaxLawRow ? 40 * c.n + 20000 : 0) + 2000;
}

/// One configuration's slot between its launcher and the judging.
struct Slot {
  bool done = false;
  bool skipped = false;  ///< left out by the time budget
  LaunchedConfig launched;
  std::exception_ptr error;
};

}  // namespace

int sweep_devices(const Executor& executor, int max_devices) {
  if (!executor.is_gpu()) return 0;
  const int visible = cuda_device_count();
  return max_devices > 0 ? std::min(visible, max_devices) : visible;
}

std::vector<std::unique_ptr<Executor>> sweep_launchers(const Executor& executor, int max_devices) {
  std::vector<std::unique_ptr<Executor>> out;
  std::string why;
  if (executor.is_gpu()) {
    const int devices = sweep_devices(executor, max_devices);
    // Lane l on device l % devices: consecutive configurations go to different devices.
    for (int lane = 0; lane < devices * kLaunchersPerDevice; ++lane)
      if (auto e = make_cuda_executor(&why, lane % devices)) out.push_back(std::move(e));
  }
  if (out.empty()) out.push_back(make_executor(executor.name(), &why));
  if (!out.front()) throw std::runtime_error("no executor to launch the sweep on: " + why);
  return out;
}

void run_sweep(AuditReport& r, const std::vector<Config>& configs,
               std::vector<std::unique_ptr<Executor>> launchers) {
  const std::size_t count = configs.size(), lanes = launchers.size();
  r.launchers = static_cast<int>(lanes);
  std::int64_t total = 0;
  for (const Config& c : configs) total += config_work(c);
  ProgressBar bar(total, "work units");
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  std::vector<Slot> slots(count);
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t judged = 0;  // configurations the judging has taken
  bool stop = false;       // the judging failed: launchers leave

  const auto launch_lane = [&](std::size_t lane) {
    for (std::size_t k = lane; k < count; k += lanes) {
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || k < judged + kLookahead * lanes; });
        if (stop) return;
      }
      Slot s;
      if (r.options.budget.seconds && elapsed() > *r.options.budget.seconds) {
        s.skipped = true;
      } else {
        try {
          s.launched = launch_config(configs[k], *launchers[lane], r.options.seed);
        } catch (...) {
          s.error = std::current_exception();
        }
      }
      s.done = true;
      {
        std::lock_guard lock(mutex);
        slots[k] = std::move(s);
      }
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t lane = 0; lane < lanes; ++lane) threads.emplace_back(launch_lane, lane);
  const auto leave = [&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    for (std::thread& t : threads) t.join();
  };

  try {
    for (std::size_t k = 0; k < count; ++k) {
      Slot s;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return slots[k].done; });
        s = std::move(slots[k]);
      }
      if (s.error) std::rethrow_exception(s.error);
      if (s.skipped)
        r.not_run.push_back(configs[k]);
      else
        r.configs.push_back(judge_config(configs[k], std::move(s.launched)));
      {
        std::lock_guard lock(mutex);
        judged = k + 1;
      }
      changed.notify_all();
      bar.advance(config_work(configs[k]));
    }
  } catch (...) {
    leave();
    throw;
  }
  leave();
  bar.finish();
  r.sweep_seconds = elapsed();
}

}  // namespace osvs::audit
