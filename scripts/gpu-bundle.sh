#!/usr/bin/env bash
# Packs a build folder for a GPU machine that has none of the build's packages: the executables,
# the ctest files and nothing else (no objects, no archives). Usage: gpu-bundle.sh BUILD BUNDLE
# On the GPU machine, `bash scripts/gpu-relocate.sh BUNDLE` rewrites the ctest paths to where the
# source tree and bundle landed.
set -euo pipefail
build=${1:?usage: gpu-bundle.sh BUILD BUNDLE}
bundle=${2:?usage: gpu-bundle.sh BUILD BUNDLE}
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$bundle"
mkdir -p "$bundle"
(cd "$build" && find . -name CTestTestfile.cmake -o -type f -perm -u+x ! -name '*.so*' ! -path '*/CMakeFiles/*' \
  | grep -v -E '\.(o|a|cmake\.in)$' | while read -r f; do mkdir -p "$bundle/$(dirname "$f")"; cp "$f" "$bundle/$f"; done)
echo "$(cd "$build" && pwd)" > "$bundle/.built-at"
echo "$src" > "$bundle/.source-at"
du -sh "$bundle"
