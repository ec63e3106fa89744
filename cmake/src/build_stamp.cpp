#include "osvs/build_stamp.h"

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "osvs/build_commit.h"

namespace osvs {

std::string recorded_build_commit() {
  return OSVS_BUILD_COMMIT;
}

std::string build_commit() {
  if (const char* commit = std::getenv("OSVS_COMMIT"); commit && *commit) return commit;
  return recorded_build_commit();
}

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace osvs
