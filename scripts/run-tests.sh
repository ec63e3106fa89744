#!/usr/bin/env bash
# The whole osvs test suite on a fresh Debian 12 machine: installs what is missing, builds
# (CUDA kernels included when nvcc is present), runs every test in Release, the host tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer with the fuzz corpus replay and a bounded
# fuzz smoke run (one clang build for both), and the Python package (pip install . into a virtual
# environment, pytest). GPU tests skip with their reason where no device is present.
# Each stage builds only what its tests run: Release everything, ASan the host test programs and
# the fuzz harness with its tests (osvs_host_test_programs, osvs_fuzz_test_programs: the asan
# build preset names them). A line per stage with its seconds is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
# No CCACHE_BASEDIR: with one, ccache hashes include paths made relative to the compiler's working
# directory, so the consumer project's second build of osvs's sources (examples.consumer_builds,
# in a build folder two levels deeper) missed every object of the Release build; with absolute
# paths (no -g in Release, so the working directory is not hashed) it hits them.

stage_names=()
stage_seconds=()
stage_cpu_seconds=()
stage_start=0
stage_cpu_start=0
# The CPU seconds (user + system) of the script's finished child processes so far (cutime and
# cstime of /proc/<this shell>/stat, in clock ticks): a stage's CPU seconds over its wall seconds
# tell how busy it kept the machine's cores.
children_cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%d", ($14 + $15) / hz }' "/proc/$$/stat"
}
begin_stage() {
  echo "== $1"
  stage_names+=("$1")
  stage_start=$(date +%s)
  stage_cpu_start=$(children_cpu_seconds)
}
end_stage() {
  stage_seconds+=($(($(date +%s) - stage_start)))
  stage_cpu_seconds+=($(($(children_cpu_seconds) - stage_cpu_start)))
}
report_times() {
  local status=$? i
  echo "== Stage times (wall seconds; CPU seconds of its processes, on $(nproc) cores)"
  for i in "${!stage_names[@]}"; do
    printf '%-72s %6s s  %6s s CPU\n' "${stage_names[$i]}" "${stage_seconds[$i]:-unfinished}" \
      "${stage_cpu_seconds[$i]:-}"
  done
  printf '%-72s %6s s\n' "total" "$(($(date +%s) - run_start))"
  return $status
}
run_start=$(date +%s)
trap report_times EXIT
# ctest with a preset; on a failure, the failing tests again with GoogleTest's failures alone
# (GTEST_BRIEF), so the end of the log says what failed even where the full output is cut.
run_ctest() {
  local status=0
  ctest --preset "$1" -j2 || status=$?
  if [ "$status" -ne 0 ]; then
    echo "== $1: the failing tests again, failures only"
    GTEST_BRIEF=1 ctest --preset "$1" --rerun-failed --output-on-failure || true
  fi
  return "$status"
}

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
run_ctest default
end_stage

begin_stage "Python: pip install . and pytest"
bash scripts/python-tests.sh
end_stage

begin_stage "ASan + UBSan (clang): build (host test programs and fuzz harness)"
cmake --preset asan >/dev/null
cmake --build --preset asan
end_stage
begin_stage "ASan + UBSan: host tests, fuzz corpus replay and smoke run"
run_ctest asan
end_stage
