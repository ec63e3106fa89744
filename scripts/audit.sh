#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs what is missing, builds, and runs
# `osvs audit` on the best executor present (the GPU when there is one, else the CPU model).
# Extra arguments go to `osvs audit` (e.g. --quick, --kernel two_pass, --executor cpu). The report
# goes to osvs-reports/audit/<executor>/<date>/ here (--out DIR elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"  # ccache hits across clones and build folders
cuda=ON
command -v nvcc >/dev/null 2>&1 || cuda=OFF
cmake --preset default -DOSVS_WITH_CUDA=$cuda >/dev/null
cmake --build --preset default --target osvs
exec ./build/cli/osvs audit "$@"
