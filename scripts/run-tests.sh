#!/usr/bin/env bash
# The whole osvs test suite on a fresh Debian 12 machine: installs what is missing, builds
# (CUDA kernels included when nvcc is present), runs every test in Release, the host tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer, and the fuzz corpus replay + a bounded
# fuzz smoke run, and the Python package (pip install . into a virtual environment, pytest). GPU
# tests skip with their reason where no device is present.
# Each stage builds only what its tests run: Release everything, ASan the host test programs
# (osvs_host_test_programs), fuzz the harness and its tests (osvs_fuzz_test_programs); the build
# presets name those targets. A line per stage with its seconds is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"  # ccache hits across clones and build folders

stage_names=()
stage_seconds=()
stage_start=0
begin_stage() {
  echo "== $1"
  stage_names+=("$1")
  stage_start=$(date +%s)
}
end_stage() { stage_seconds+=($(($(date +%s) - stage_start))); }
report_times() {
  local status=$? i
  echo "== Stage times"
  for i in "${!stage_names[@]}"; do
    printf '%-40s %6s s\n' "${stage_names[$i]}" "${stage_seconds[$i]:-unfinished}"
  done
  printf '%-40s %6s s\n' "total" "$(($(date +%s) - run_start))"
  return $status
}
run_start=$(date +%s)
trap report_times EXIT

begin_stage "packages"
bash scripts/install-deps.sh
end_stage

cuda=ON
if ! command -v nvcc >/dev/null 2>&1; then
  cuda=OFF
  echo "osvs: nvcc not on PATH: building without the CUDA kernels (GPU tests will skip)"
fi

begin_stage "Release: build"
cmake --preset default -DOSVS_WITH_CUDA=$cuda >/dev/null
cmake --build --preset default
end_stage
begin_stage "Release: tests"
ctest --preset default -j2
end_stage

begin_stage "Python: pip install . and pytest"
bash scripts/python-tests.sh
end_stage

begin_stage "ASan + UBSan: build (host test programs)"
cmake --preset asan >/dev/null
cmake --build --preset asan
end_stage
begin_stage "ASan + UBSan: host tests"
ctest --preset asan -j2
end_stage

if [ -f fuzz/CMakeLists.txt ] && grep -q add_executable fuzz/CMakeLists.txt; then
  begin_stage "fuzz: build (harness and its tests)"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
  end_stage
  begin_stage "fuzz: corpus replay and smoke run"
  ctest --preset fuzz
  end_stage
fi
