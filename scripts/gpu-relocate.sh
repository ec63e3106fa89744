#!/usr/bin/env bash
# Rewrites the absolute paths in a bundle's ctest files (see gpu-bundle.sh) to this machine's:
# the build folder recorded becomes BUNDLE, the source tree recorded becomes SOURCE (default: the
# osvs tree this script is in; give a consumer project's tree for its bundle) and the cmake
# program becomes this machine's when the recorded one is not here. Any absolute paths work
# (spaces, regex characters, one path inside the other: each occurrence is replaced once, the
# longer match first), and relocating again is harmless (the bundle records where it now is).
set -euo pipefail
bundle=$(cd "${1:?usage: gpu-relocate.sh BUNDLE [SOURCE]}" && pwd)
src=$(cd "${2:-$(dirname "$0")/..}" && pwd)
old_build=$(cat "$bundle/.built-at")
old_src=$(cat "$bundle/.source-at")
old_cmake=$(cat "$bundle/.cmake-at" 2>/dev/null || true)
new_cmake=$old_cmake
if [ -n "$old_cmake" ] && [ ! -x "$old_cmake" ]; then new_cmake=$(command -v cmake || echo "$old_cmake"); fi
find "$bundle" -name CTestTestfile.cmake -print0 |
  OB=$old_build NB=$bundle OS=$old_src NS=$src OC=${old_cmake:-/nonexistent/cmake} NC=$new_cmake \
    xargs -0 perl -pi -e '
      BEGIN { @pairs = sort { length($b->[0]) <=> length($a->[0]) }
                       ([$ENV{OB}, $ENV{NB}], [$ENV{OS}, $ENV{NS}], [$ENV{OC}, $ENV{NC}]);
              %to = map { $_->[0] => $_->[1] } @pairs;
              $any = join "|", map { quotemeta $_->[0] } @pairs; }
      s/($any)/$to{$1}/g;'
echo "$bundle" > "$bundle/.built-at"
echo "$src" > "$bundle/.source-at"
[ -n "$new_cmake" ] && echo "$new_cmake" > "$bundle/.cmake-at"
echo "gpu-relocate.sh: $bundle now runs against $src"
