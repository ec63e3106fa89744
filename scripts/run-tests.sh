#!/usr/bin/env bash
# The whole osvs test suite on a fresh Debian 12 machine: installs what is missing, builds
# (CUDA kernels included when nvcc is present), runs every test in Release, the host tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer, and the fuzz corpus replay + a bounded
# fuzz smoke run. GPU tests skip with their reason where no device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"  # ccache hits across clones and build folders

cuda=ON
if ! command -v nvcc >/dev/null 2>&1; then
  cuda=OFF
  echo "osvs: nvcc not on PATH: building without the CUDA kernels (GPU tests will skip)"
fi

echo "== Release build and tests"
cmake --preset default -DOSVS_WITH_CUDA=$cuda >/dev/null
cmake --build --preset default
ctest --preset default -j2

echo "== Host tests under ASan + UBSan"
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -j2

if [ -f fuzz/CMakeLists.txt ] && grep -q add_executable fuzz/CMakeLists.txt; then
  echo "== Fuzz corpus replay and smoke run"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
  ctest --preset fuzz
fi
