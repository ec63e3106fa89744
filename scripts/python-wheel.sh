#!/usr/bin/env bash
# A wheel of osvs for a machine without osvs's packages or a network (the GPU machine): the
# shared MPFR and GMP libraries travel in the package (OSVS_PYTHON_BUNDLE_LIBS), libstdc++ is
# linked statically; built for the Python given (the target's major.minor: the GPU machine has
# 3.12), into build-python-wheel/dist/.
#   bash scripts/python-wheel.sh ~/.pyenv/versions/3.12.1/bin/python3.12
# There: pip install --no-deps --no-index build-python-wheel/dist/osvs-*.whl (numpy is needed).
set -euo pipefail
cd "$(dirname "$0")/.."
py="${1:-python3.12}"
# The compiler and ccache settings of scripts/python-tests.sh: after a Release build, ccache has
# nearly every object.
export CXX="${CXX:-c++}" CC="${CC:-cc}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
tag=$("$py" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
venv=build-python-wheel/venv-$tag
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check nanobind scikit-build-core
"$venv/bin/python" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
  -C build-dir="build-python-wheel/build-$tag" -C cmake.define.OSVS_PYTHON_BUNDLE_LIBS=ON \
  -w build-python-wheel/dist .
ls build-python-wheel/dist/osvs-*-"$tag"-*.whl
