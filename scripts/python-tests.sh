#!/usr/bin/env bash
# The Python package's tests: `pip install .` of the repository into a virtual environment under
# build-python/ (the extension osvs._core and only the libraries it links, no CUDA; build-python/
# and ccache make a second run cheap), then pytest over python/tests. Shrunk failures are kept
# under build-python/osvs-regressions. Needs PyPI for nanobind, scikit-build-core, numpy and
# pytest the first time (afterwards the environment has them).
set -euo pipefail
cd "$(dirname "$0")/.."
# No CCACHE_BASEDIR and the compiler CMake picks by default (c++): the sources outside python/
# compile with the Release build's command lines (OSVS_WITH_CUDA is defined only for the few
# files that branch on it), so after a Release build ccache has nearly every object (CI time).
export CXX="${CXX:-c++}" CC="${CC:-cc}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
venv=build-python/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
"${pip[@]}" nanobind scikit-build-core numpy pytest pytest-xdist
"${pip[@]}" --no-build-isolation .
"$venv/bin/python" -m pytest -q --osvs-regressions=build-python/osvs-regressions "$@"
