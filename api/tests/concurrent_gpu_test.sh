#!/usr/bin/env bash
# The runner under a shared GPU: a load process (osvs_gpu_load) keeps the device's copy engines
# and SMs busy while two test programs run at once; each must pass as it does alone.
# Usage: concurrent_gpu_test.sh WORKDIR LOAD PROGRAM_A FILTER_A PROGRAM_B FILTER_B
# (FILTER_x: the program's --gtest_filter)
# The programs get their own regression folders and logs under WORKDIR. Exit 77 (skip) when the
# load finds no device, 1 when a program fails or the load dies, 0 when both programs pass.
set -uo pipefail
work=${1:?usage: concurrent_gpu_test.sh WORKDIR LOAD PROGRAM_A FILTER_A PROGRAM_B FILTER_B}
load=${2:?missing LOAD}
a=${3:?missing PROGRAM_A}
filter_a=${4:?missing FILTER_A}
b=${5:?missing PROGRAM_B}
filter_b=${6:?missing FILTER_B}
mkdir -p "$work"
"$load" 600 > "$work/load.log" 2>&1 &
load_pid=$!
pids="$load_pid"
trap 'kill $pids 2>/dev/null; wait $pids 2>/dev/null' EXIT
trap 'exit 143' TERM INT  # a time limit or ^C still stops the load and the programs
for _ in $(seq 600); do  # the load's first round (at most a minute)
  grep -q loading "$work/load.log" && break
  kill -0 $load_pid 2>/dev/null || break
  sleep 0.1
done
if ! grep -q loading "$work/load.log"; then
  wait $load_pid
  status=$?
  cat "$work/load.log"
  [ $status -eq 77 ] && exit 77
  echo "concurrent_gpu_test: the load process did not start (exit $status)"
  exit 1
fi
run() {  # NAME PROGRAM FILTER
  OSVS_REGRESSION_DIR="$work/$1-regressions" exec "$2" --gtest_filter="$3" > "$work/$1.log" 2>&1
}
run a "$a" "$filter_a" &
pid_a=$!
run b "$b" "$filter_b" &
pid_b=$!
pids="$load_pid $pid_a $pid_b"
wait $pid_a
status_a=$?
wait $pid_b
status_b=$?
if ! kill -0 $load_pid 2>/dev/null; then
  echo "concurrent_gpu_test: the load ended before the programs did:"
  cat "$work/load.log"
  exit 1
fi
for p in a b; do
  echo "== program $p: $(tail -1 "$work/$p.log")"
done
if [ $status_a -ne 0 ] || [ $status_b -ne 0 ]; then
  for p in a b; do
    echo "== failures of program $p"
    grep -E "unwritten|FAILED|breaks|KernelFailure|came back|arrived" "$work/$p.log" | head -20
  done
  echo "concurrent_gpu_test: FAILED (exit $status_a and $status_b) under a loaded GPU"
  exit 1
fi
if grep -q "every test of this binary was skipped" "$work/a.log"; then
  echo "concurrent_gpu_test: the programs skipped every test: no device for them"
  exit 77
fi
echo "concurrent_gpu_test: both programs passed while another process loaded the GPU"
