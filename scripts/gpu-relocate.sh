#!/usr/bin/env bash
# Rewrites the absolute paths in a bundle's ctest files (see gpu-bundle.sh) to this machine's.
set -euo pipefail
bundle=$(cd "${1:?usage: gpu-relocate.sh BUNDLE}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
old_build=$(cat "$bundle/.built-at")
old_src=$(cat "$bundle/.source-at")
find "$bundle" -name CTestTestfile.cmake -print0 |
  xargs -0 sed -i -e "s#$old_build#$bundle#g" -e "s#$old_src#$src#g"
