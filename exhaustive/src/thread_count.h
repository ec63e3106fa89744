// The threads an exhaustive check runs on: as many as asked, or (0) one per hardware thread.
#pragma once

#include <algorithm>
#include <thread>

namespace osvs {

inline unsigned thread_count(unsigned asked) {
  return asked > 0 ? asked : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace osvs
