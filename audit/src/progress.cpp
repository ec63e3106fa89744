#include "osvs/audit/progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace osvs::audit {
namespace {

std::string duration(double s) {
  if (!(s >= 0) || s > 1e6) return "?";
  const auto t = static_cast<long>(s + 0.5);
  return t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60) : fmt::format("{}s", t);
}

}  // namespace

ProgressBar::ProgressBar(std::int64_t total, std::string what)
    : total_(total > 0 ? total : 1),
      what_(std::move(what)),
      tty_(isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressBar::advance(std::int64_t done) {
  done_ += done;
  const auto now = std::chrono::steady_clock::now();
  const int decile = static_cast<int>(10 * done_ / total_);
  if (tty_ ? now - last_draw_ > std::chrono::milliseconds(200) : decile > last_decile_) {
    last_decile_ = decile;
    last_draw_ = now;
    draw(false);
  }
}

void ProgressBar::finish() {
  draw(true);
}

void ProgressBar::draw(bool final_line) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double fraction = std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : -1;
  constexpr int width = 30;
  const int filled = static_cast<int>(fraction * width);
  const std::string bar = std::string(filled, '#') + std::string(width - filled, '.');
  const std::string line =
      fmt::format("[{}] {:5.1f}% {:.3g}/{:.3g} {} {:.3g}/s elapsed {} ETA {}", bar, 100 * fraction,
                  static_cast<double>(done_), static_cast<double>(total_), what_, rate,
                  duration(elapsed), final_line ? "0s" : duration(eta));
  fmt::print(stderr, "{}{}{}", tty_ ? "\r" : "", line, tty_ && !final_line ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace osvs::audit
