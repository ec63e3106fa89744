#!/usr/bin/env bash
# Packs a build folder for a GPU machine that has none of the build's packages: the ctest files
# and the (stripped) executables the GPU work needs, nothing else (no objects, no archives).
# Usage: gpu-bundle.sh BUILD BUNDLE [EXECUTABLE-NAME...]   (default: every executable)
# BUILD may be any CMake build folder, osvs's own or a consumer project's that adds osvs as a
# subdirectory: the source tree recorded is the one BUILD was configured from (its CMakeCache's
# CMAKE_HOME_DIRECTORY). On the GPU machine, `bash scripts/gpu-relocate.sh BUNDLE [SOURCE]`
# rewrites the ctest paths to where the source tree and the bundle landed. Shared libraries the
# programs need from this machine's packages travel in BUNDLE/lib (put it on LD_LIBRARY_PATH).
set -euo pipefail
build=$(cd "${1:?usage: gpu-bundle.sh BUILD BUNDLE [NAME...]}" && pwd)
bundle=${2:?usage: gpu-bundle.sh BUILD BUNDLE [NAME...]}
shift 2
wanted=("$@")
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null)
if [ -z "$src" ]; then
  echo "gpu-bundle.sh: $build is not a configured CMake build folder (no CMakeCache.txt)" >&2
  exit 2
fi
cmake_at=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
rm -rf "$bundle"
mkdir -p "$bundle"
bundle=$(cd "$bundle" && pwd)
keep() {
  [ ${#wanted[@]} -eq 0 ] && return 0
  local name
  for name in "${wanted[@]}"; do [ "$(basename "$1")" = "$name" ] && return 0; done
  return 1
}
cd "$build"
find . -name CTestTestfile.cmake | while read -r f; do
  mkdir -p "$bundle/$(dirname "$f")"
  cp "$f" "$bundle/$f"
done
# Executables, and the kernel plugins that `osvs audit --plugin` and the tests load.
find . -type f \( -perm -u+x ! -name '*.so*' -o -name 'lib*plugin*.so' \) ! -path '*/CMakeFiles/*' \
  ! -name '*.o' ! -name '*.a' |
  while read -r f; do
    keep "$f" || continue
    mkdir -p "$bundle/$(dirname "$f")"
    strip -o "$bundle/$f" "$f" 2>/dev/null || cp "$f" "$bundle/$f"
  done
# Shared libraries of this machine's packages that the bundled programs link (the SMT solver's
# libz3 for the formal tests): the GPU machine has none of them, so they travel in lib/, which
# gpu-suite.sh puts on LD_LIBRARY_PATH. The C and C++ runtimes and the CUDA driver stay the
# machine's own.
mkdir -p "$bundle/lib"
find "$bundle" -type f -perm -u+x ! -name '*.so*' -exec ldd {} \; 2>/dev/null |
  sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p' | sort -u |
  { grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|libcuda|ld-linux[^/]*)\.so' || true; } |
  while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
echo "$build" > "$bundle/.built-at"
echo "$src" > "$bundle/.source-at"
echo "$cmake_at" > "$bundle/.cmake-at"
du -sh "$bundle"
