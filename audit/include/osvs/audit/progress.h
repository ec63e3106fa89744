// A progress bar with throughput and ETA on stderr: redrawn in place on a terminal, a line every
// 10 % otherwise (logs, CI).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace osvs::audit {

class ProgressBar {
 public:
  /// `total` units of work (elements), `what` names them in the line.
  ProgressBar(std::int64_t total, std::string what);
  /// Marks `done` more units as finished and redraws when due.
  void advance(std::int64_t done);
  /// Ends the bar with a final line.
  void finish();

 private:
  void draw(bool final_line);
  std::int64_t total_, done_ = 0;
  std::string what_;
  bool tty_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace osvs::audit
