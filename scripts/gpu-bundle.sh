#!/usr/bin/env bash
# Packs a build folder for a GPU machine that has none of the build's packages: the ctest files
# and the (stripped) executables the GPU work needs, nothing else (no objects, no archives).
# Usage: gpu-bundle.sh BUILD BUNDLE [EXECUTABLE-NAME...]   (default: every executable)
# On the GPU machine, `bash scripts/gpu-relocate.sh BUNDLE` rewrites the ctest paths to where the
# source tree and the bundle landed.
set -euo pipefail
build=$(cd "${1:?usage: gpu-bundle.sh BUILD BUNDLE [NAME...]}" && pwd)
bundle=${2:?usage: gpu-bundle.sh BUILD BUNDLE [NAME...]}
shift 2
wanted=("$@")
src=$(cd "$(dirname "$0")/.." && pwd)
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
echo "$build" > "$bundle/.built-at"
echo "$src" > "$bundle/.source-at"
du -sh "$bundle"
