#!/usr/bin/env bash
# Rebuilds osvs and regenerates every committed report that this machine makes (no GPU needed):
#   reports/audit/cpu/      `osvs audit --executor cpu`: audit.md, summary.json, the plots
#   reports/mutation/cpu/   `osvs_mutation --executor cpu`: mutation.md, mutation.json and the
#                           shrunk counterexamples it names
# Each report is stamped with the commit it was built from (the build's osvs/build_commit.h); the
# full detail of the audit (audit.json, worst_cases.json, gzipped when large; plot data) stays in
# <build>/reports/. The GPU reports (reports/audit/cuda, reports/mutation/cuda, reports/gpu) come
# from scripts/gpu-suite.sh on a GPU machine. Hand-written files (reports/bounds.md, the fuzz
# campaign notes) and the regression library are not generated here.
# Usage: scripts/regenerate-reports.sh   (builds with the preset default, in build/)
# Commit the code first: a report from a tree with uncommitted changes is stamped "-dirty" and
# refused (OSVS_ALLOW_DIRTY=1 writes it anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
build=build  # the preset default's folder

cuda=ON
command -v nvcc >/dev/null 2>&1 || cuda=OFF
cmake --preset default -DOSVS_WITH_CUDA=$cuda >/dev/null
cmake --build --preset default --target osvs osvs_mutation

commit=$(sed -n 's/^#define OSVS_BUILD_COMMIT "\(.*\)"$/\1/p' "$build/generated/osvs/build_commit.h")
echo "regenerating the CPU reports at commit $commit"
case "$commit" in
  *-dirty | unknown)
    if [ "${OSVS_ALLOW_DIRTY:-0}" != 1 ]; then
      echo "the build is not of a committed tree ($commit): commit first (or OSVS_ALLOW_DIRTY=1)" >&2
      exit 2
    fi ;;
esac
unset OSVS_COMMIT  # the build's own stamp, never an override

status=0
# The CPU audit: the full run into the build folder, the committed set copied from there.
detail="$build/reports/audit/cpu"
rm -rf "$detail"
./"$build"/cli/osvs audit --executor cpu --out "$detail" || status=$?
rm -rf reports/audit/cpu
mkdir -p reports/audit/cpu
cp "$detail"/audit.md "$detail"/summary.json "$detail"/certificate.json reports/audit/cpu/
cp "$detail"/*.png reports/audit/cpu/ 2>/dev/null || echo "no plots (gnuplot missing?)"
# The committed plots as 256-colour palettes (pngquant, where installed): the same picture at
# less than half the bytes; the build folder keeps gnuplot's own files.
if command -v pngquant >/dev/null 2>&1; then
  for png in reports/audit/cpu/*.png; do pngquant --quality=85-100 --speed 1 -f --ext .png "$png"; done
fi

# The CPU mutation run: the report plain, the shrunk counterexamples it names packed into
# raw.tar.xz (some are rows of 16416 elements; the folder's README says how to unpack them).
rm -rf "$build/reports/mutation"
./"$build"/mutation/osvs_mutation --executor cpu --out "$build/reports/mutation" || status=$?
readme=$(cat reports/mutation/cpu/README.md 2>/dev/null || true)
rm -rf reports/mutation/cpu
cp -r "$build/reports/mutation/cpu" reports/mutation/cpu
if [ -d reports/mutation/cpu/regressions ]; then
  (cd reports/mutation/cpu && tar -cJf raw.tar.xz regressions && rm -r regressions)
fi
[ -n "$readme" ] && printf '%s\n' "$readme" > reports/mutation/cpu/README.md

git status --short reports/
[ "$status" -eq 0 ] || echo "a report says the release or the mutation gate fails (exit $status)" >&2
exit "$status"
