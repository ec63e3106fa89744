#!/usr/bin/env bash
# Runs osvs's GPU work on a machine with a device, from a source tree that carries two bundles
# made by gpu-bundle.sh: build-gpu (default build) and build-gpu-portable (OSVS_PORTABLE_EXP).
# Usage: gpu-suite.sh OUT PARTS   PARTS = one or more (quoted) of tests api large audit exp
#                                  grid sanitize every_input, or all
# Everything goes under OUT/results/ and is packed into OUT/results.tar.gz at the end; what is
# meant to be committed is also gathered under results/commit/ (the same small set as the CPU
# reports: audit.md, summary.json and the plots of the audit; the mutation report), to be copied
# into reports/audit/cuda/<date>/ and reports/mutation/cuda/. The audit's full detail
# (audit.json.gz, worst_cases.json) stays in results/audit/, an artefact of the run, not committed.
set -uo pipefail
out=${1:?usage: gpu-suite.sh OUT PART}
part=${2:-all}
wants() { [ "$part" = all ] || [[ " $part " == *" $1 "* ]]; }
src=$(cd "$(dirname "$0")/.." && pwd)
res="$out/results"
mkdir -p "$res"
cd "$src"
for b in build-gpu build-gpu-portable; do [ -d "$b" ] && bash scripts/gpu-relocate.sh "$b"; done
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
  grep PRETTY_NAME /etc/os-release
  cat build-gpu/.commit 2>/dev/null
} > "$res/provenance.txt" 2>&1
export OSVS_COMMIT=$(cat build-gpu/.commit 2>/dev/null)
# The shared libraries the bundle carries (gpu-bundle.sh: the formal tests' libz3).
export LD_LIBRARY_PATH="$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# cuDNN for examples/cudnn_softmax: from the CUDA folder, else from the Python package
# nvidia-cudnn-cu13 (linked dynamically; its folder goes on LD_LIBRARY_PATH).
cudnn_dir=$(python3 -c 'import nvidia.cudnn, os; print(os.path.dirname(nvidia.cudnn.__file__) + "/lib")' 2>/dev/null)
[ -n "$cudnn_dir" ] && export LD_LIBRARY_PATH="$cudnn_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "cuDNN from: ${cudnn_dir:-the system}, version $(python3 -c 'import ctypes; print(ctypes.CDLL("libcudnn.so.9").cudnnGetVersion())' 2>&1)" >> "$res/provenance.txt"
# Tests write their shrunk failures under <bundle>/regressions (OSVS_BUILD_DIR, relocated by
# gpu-relocate.sh); they are collected at the end, to be reviewed before joining reports/.

if wants tests; then
  (cd build-gpu && ctest -L gpu --output-on-failure -j1 --timeout 300 \
     --output-junit "$res/ctest-gpu-default.xml") > "$res/ctest-gpu-default.log" 2>&1
  tail -15 "$res/ctest-gpu-default.log"
  # The portable build is there for one thing: the CPU model equals the GPU bit for bit.
  (cd build-gpu-portable && ctest -R 'kernels.gpu_agreement|mutation.gpu_agreement|properties.gpu|replay.gpu' \
     --output-on-failure -j1 --timeout 200 --output-junit "$res/ctest-gpu-portable.xml") \
     > "$res/ctest-gpu-portable.log" 2>&1
  tail -15 "$res/ctest-gpu-portable.log"
  cp -r build-gpu/test-results "$res/gtest-xml-default" 2>/dev/null
  cp -r build-gpu-portable/test-results "$res/gtest-xml-portable" 2>/dev/null
  build-gpu/bench/osvs_softmax_bench "$res/bench.json" > "$res/bench.log" 2>&1
  tail -30 "$res/bench.log"
  cuobjdump --dump-sass build-gpu/bench/combine_sass.o > "$res/combine_sass.txt" 2>&1
fi

if wants every_input; then
  # The host tests that sweep all 2^32 inputs (label every_input, left out of CI's default
  # preset): here on every core of the device machine.
  (cd build-gpu && ctest -L every_input --output-on-failure -j1 --timeout 900 \
     --output-junit "$res/ctest-every-input.xml") > "$res/ctest-every-input.log" 2>&1
  tail -8 "$res/ctest-every-input.log"
fi

if wants exp; then
  # The exps the bounds stand on, on every binary32 input against the correctly rounded result
  # (exhaustive/README.md). reports/exp/verified.json records the driver its figures were
  # measured on; every run measures again, and says whether this driver is a new one.
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  if grep -qF "driver $driver " reports/exp/verified.json; then
    echo "driver $driver: the one the verified figures were measured on" | tee "$res/exp.log"
  else
    echo "driver $driver is not the one of reports/exp/verified.json: re-checking" | tee "$res/exp.log"
  fi
  start=$(date +%s)
  timeout "${OSVS_EXP_TIMEOUT:-420}" build-gpu/exhaustive/osvs_exp_check --double --driver "$driver" \
    --threads "${OSVS_EXP_THREADS:-0}" --out "$res/exp" >> "$res/exp.log" 2>&1
  echo "osvs_exp_check exit $? after $(( $(date +%s) - start )) s" | tee -a "$res/exp.log"
  cat "$res/exp.log"
  mkdir -p "$res/commit/exp"
  cp "$res/exp"/* "$res/exp.log" "$res/commit/exp/" 2>/dev/null
fi

if wants grid; then
  # The combine laws on the bf16 grid (exhaustive/README.md, "The combine grid"): every registered
  # operator but the mutants, every (m1, m2) pair of bf16 values with each of the 49 (d1, d2)
  # pairs, on the device. Exit 1 when a held law fails (the seed's unclaimed laws are counted).
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  start=$(date +%s)
  timeout "${OSVS_GRID_TIMEOUT:-540}" build-gpu/exhaustive/osvs_combine_grid --executor cuda \
    --driver "$driver" --out "$res/grid" > "$res/grid.log" 2>&1
  echo "osvs_combine_grid exit $? after $(( $(date +%s) - start )) s" | tee -a "$res/grid.log"
  cat "$res/grid.log"
  mkdir -p "$res/commit/grid"
  cp "$res/grid"/* "$res/grid.log" "$res/commit/grid/" 2>/dev/null
fi

if wants sanitize; then
  # compute-sanitizer's four tools over every kernel osvs ships: the kernels' own GPU tests (2-pass,
  # 3-pass, hardened, the fast family's layouts and split rows, combine-level and harness kernels)
  # and the mutants' agreement tests (mutation/; the 2-pass mutants run in the portable build's,
  # when its bundle is here), osvs's kernels
  # through the API testbed, the attention kernels under the attention laws, the examples' CUDA
  # kernels, the exp measurement's and the combine grid's kernels. Few property cases per law
  # (RC_PARAMS): the tools cost 10-100x. LargeIndex (2^31 elements) and cuDNN (not osvs's
  # kernels) are left out.
  mkdir -p "$res/sanitize"
  export RC_PARAMS="seed=20261130 max_success=4" OSVS_SHRINK_SECONDS=5
  export OSVS_REGRESSION_DIR="$res/sanitize/regressions"  # a testbed's shrunk failures come back
  sanitize() {  # sanitize TOOL NAME PROGRAM [ARGS...]
    local tool=$1 name=$2 log="$res/sanitize/$1-$2.log"
    shift 2
    timeout "${OSVS_SANITIZE_TIMEOUT:-150}" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$@" > "$log" 2>&1
    echo "$tool $name: exit $?, $(grep -E '(ERROR|RACECHECK) SUMMARY' "$log" | tail -1)" \
      >> "$res/sanitize/summary.txt"
  }
  for tool in memcheck racecheck synccheck initcheck; do
    for b in build-gpu build-gpu-portable; do
      [ -x $b/kernels/tests/osvs_kernel_gpu_tests ] &&
        sanitize $tool kernels-${b#build-} $b/kernels/tests/osvs_kernel_gpu_tests \
          --gtest_filter='GpuAgreement.*:FastAgreement.*' &
      [ -x $b/mutation/tests/osvs_mutation_gpu_tests ] &&
        sanitize $tool mutants-${b#build-} $b/mutation/tests/osvs_mutation_gpu_tests &
    done
    sanitize $tool builtin_testbed build-gpu/api/tests/osvs_builtin_kernel_tests \
      --gtest_filter='-*cpu_model*' &
    # attention: the split-KV decode and merge-states kernels under every attention law
    sanitize $tool attention build-gpu/properties/tests/osvs_attention_property_tests \
      --executor=cuda --gtest_filter='*Laws*' &
    # The examples with their saved cases, as in ctest. A declared finding must show up, which 4
    # cases do not make sure of for the combine operator's NaN findings: its laws (cheap) run with
    # RapidCheck's default count.
    OSVS_REPLAY_DIR=examples/fast_softmax/osvs-regressions \
      sanitize $tool fast_softmax build-gpu/examples/fast_softmax/example_fast_softmax_test &
    OSVS_REPLAY_DIR=examples/combine_operator/osvs-regressions RC_PARAMS="seed=20261130" \
      sanitize $tool combine_operator build-gpu/examples/combine_operator/example_combine_operator_test &
    sanitize $tool exp_check build-gpu/exhaustive/osvs_exp_check --stride 65537 --threads 2 &
    sanitize $tool combine_grid build-gpu/exhaustive/osvs_combine_grid --executor cuda \
      --stride 65537 --d-passes 1 --threads 2 &
  done
  wait
  sort "$res/sanitize/summary.txt" | tee "$res/sanitize/summary.sorted" && mv "$res/sanitize/summary.sorted" "$res/sanitize/summary.txt"
  mkdir -p "$res/commit/sanitize"
  cp "$res/sanitize/summary.txt" "$res/sanitize"/*.log "$res/commit/sanitize/"
fi

if wants api; then
  # Kernels nobody in osvs wrote, through the public API: the examples' laws ran in the gpu tests
  # above; here their plugins are audited (each kernel in a process of its own).
  for plugin in build-gpu/examples/fast_softmax/libexample_fast_softmax_plugin.so \
                build-gpu/examples/cudnn_softmax/libexample_cudnn_softmax_plugin.so; do
    [ -f "$plugin" ] || continue
    name=$(basename "$plugin" .so)
    timeout 560 build-gpu/cli/osvs audit --plugin "$plugin" --kernel-seconds 240 \
      --out "$res/plugin-audit/$name" > "$res/plugin-audit-$name.log" 2>&1
    echo "plugin audit $name exit $?" | tee -a "$res/plugin-audit-$name.log"
    tail -12 "$res/plugin-audit-$name.log"
  done
  mkdir -p "$res/commit/plugin-audit"
  for d in "$res"/plugin-audit/*/; do
    [ -f "$d/audit.md" ] && cp "$d/audit.md" "$res/commit/plugin-audit/$(basename "$d").md"
  done
  # the testbeds' shrunk cases (row regression files)
  (cd build-gpu && find . -path '*osvs-regressions/*' -name '*.json' | while read -r f; do
    mkdir -p "$res/regressions/rows/$(dirname "$f")"; cp "$f" "$res/regressions/rows/$f"; done)
fi

if wants large; then
  # The opt-in law of batches past 2^31 elements, on the device kernels: osvs's own, the example
  # and cuDNN's f32 modes (each run moves 8.6 GB each way).
  export OSVS_LARGE_LAWS=1
  for spec in "build-gpu/api/tests/osvs_builtin_kernel_tests:osvs_two_pass_seed_256.large_batch:osvs_two_pass_hardened_256.large_batch:osvs_three_pass_256.large_batch" \
              "build-gpu/examples/fast_softmax/example_fast_softmax_test:*.large_batch" \
              "build-gpu/examples/cudnn_softmax/example_cudnn_softmax_test:cudnn_accurate_f32.large_batch:cudnn_log_f32.large_batch"; do
    program=${spec%%:*}
    [ -x "$program" ] || continue
    (cd "$(dirname "$program")" && timeout 300 "./$(basename "$program")" --gtest_filter="${spec#*:}") \
      > "$res/large-$(basename "$program").log" 2>&1
    echo "large_batch $(basename "$program") exit $?" | tee -a "$res/large-$(basename "$program").log"
    grep -E "^\[ +(OK|FAILED|SKIPPED) +\]|osvs     \]" "$res/large-$(basename "$program").log" | head -20
  done
  unset OSVS_LARGE_LAWS
fi

if wants audit; then
  timeout 420 build-gpu/cli/osvs audit --executor cuda --budget 2^30 --no-plots --out "$res/audit" \
    --regression-dir "$res/regressions/audit" > "$res/audit.log" 2>&1
  echo "audit exit $?" | tee -a "$res/audit.log"
  tail -25 "$res/audit.log"
  mkdir -p "$res/commit/audit"
  cp "$res/audit/audit.md" "$res/audit/summary.json" "$res/audit/certificate.json" "$res/commit/audit/" 2>/dev/null
  # Plots where gnuplot is present (else `osvs audit --plot results/audit` later, then copy).
  if command -v gnuplot >/dev/null 2>&1 && build-gpu/cli/osvs audit --plot "$res/audit"; then
    cp "$res/audit"/*.png "$res/commit/audit/"
  fi
  if [ -x build-gpu/mutation/osvs_mutation ]; then
    timeout 150 build-gpu/mutation/osvs_mutation --executor cuda --out "$res/mutation" > "$res/mutation.log" 2>&1
    echo "mutation exit $?" | tee -a "$res/mutation.log"
    tail -25 "$res/mutation.log"
    mkdir -p "$res/commit/mutation"
    cp -r "$res/mutation/cuda/." "$res/commit/mutation/" 2>/dev/null
  fi
fi
for b in build-gpu build-gpu-portable; do
  if [ -d "$b/regressions" ]; then
    mkdir -p "$res/regressions/$b"
    cp -r "$b/regressions/." "$res/regressions/$b/"
  fi
done
tar -C "$out" -czf "$out/results.tar.gz" results && rm -rf "$res"
ls -la "$out"
