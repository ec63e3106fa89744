#!/usr/bin/env bash
# Turns fuzz crash inputs into regression files, minimised first:
#   fuzz/crash_to_regression.sh crash-<sha1> [more crash files...]
# For each input: libFuzzer minimises it (-minimize_crash=1, 60 s) into <input>.min, then
# osvs_fuzz_to_regression decodes it exactly as the harness does, prints the verdict and writes
# the regression file through write_regression() (found_by "fuzz", expectation Holds).
# Environment: OSVS_FUZZ_BUILD (build folder, default build-fuzz), OSVS_REGRESSION_DIR (root of
# the regression files, default <source>/reports/regressions), OSVS_MINIMIZE_SECONDS (default 60).
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: $0 CRASH_FILE..." >&2
  exit 2
fi
build=${OSVS_FUZZ_BUILD:-build-fuzz}
fuzzer=$build/fuzz/osvs_softmax_fuzzer
tool=$build/fuzz/osvs_fuzz_to_regression
for program in "$fuzzer" "$tool"; do
  if [ ! -x "$program" ]; then
    echo "$program not found: build the fuzz preset first (cmake --build --preset fuzz)" >&2
    exit 2
  fi
done
for crash in "$@"; do
  if [ ! -f "$crash" ]; then
    echo "$crash: no such file" >&2
    exit 2
  fi
  minimized=$crash.min
  # libFuzzer exits non-zero while minimising a crashing input; the result is the file it wrote.
  "$fuzzer" "$crash" -minimize_crash=1 -max_total_time="${OSVS_MINIMIZE_SECONDS:-60}" \
    -exact_artifact_path="$minimized" >"$minimized.log" 2>&1 || true
  if [ ! -s "$minimized" ]; then
    echo "$crash: nothing smaller found (see $minimized.log); using it as is" >&2
    cp "$crash" "$minimized"
  fi
  echo "$crash: $(wc -c <"$crash") bytes, minimised to $(wc -c <"$minimized")" >&2
  "$tool" "$minimized"
done
