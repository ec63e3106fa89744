// What a result is stamped with: the commit of the sources the build was made from and the time
// it was made. Defined in one translation unit (cmake/src/build_stamp.cpp, the library
// osvs_build_commit), the only one that reads the generated osvs/build_commit.h: a new commit
// recompiles that file alone, and no other file's compile command names the build folder's
// generated headers (so that another build of the same sources, such as a consumer project's,
// shares their compiled objects through ccache).
#pragma once

#include <string>

namespace osvs {

/// The commit the build recorded when it last ran (OSVS_BUILD_COMMIT of osvs/build_commit.h).
std::string recorded_build_commit();

/// The commit results name: a non-empty OSVS_COMMIT in the environment (e.g. for a bundle whose
/// results are to name the commit it was built from explicitly), else recorded_build_commit().
std::string build_commit();

/// Now, in UTC, as ISO 8601 to the second: "2026-12-01T09:30:00Z".
std::string utc_now_iso8601();

}  // namespace osvs
