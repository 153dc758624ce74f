#!/usr/bin/env bash
# The Python package's stage of the test suite: build tridi's Python package
# from this tree into a virtual environment (build/pyvenv) and run its tests
# (python/tests, which also run the examples of docs/python.md).
#
#   ./scripts/test_python.sh         (from anywhere; scripts/test.sh runs it)
#
# `pip install ./python` is what the tests run; `pip install .` at the root
# (the root pyproject.toml, same CMake project) is built as a wheel in the
# same build folder, which compiles nothing again, and solves once.
# The package is built CPU-only here (TRIDI_ENABLE_CUDA=OFF): the CUDA code is
# already compiled and linked by the main build of scripts/test.sh, and
# compiling it again would add about two minutes on a 2-core machine.  The
# GPU tests skip without a GPU; scripts/gpu.sh runs them with a CUDA build.
# Without Python >= 3.9 and its venv module the stage is skipped with a
# message (deps.sh installs python3-venv and python3-dev on Debian).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1 ||
   ! "$PY" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 9))' >/dev/null 2>&1; then
  echo "test_python.sh: SKIPPED the Python package tests: no Python >= 3.9 with the venv module ($PY)"
  exit 0
fi
t0=$(date +%s)
VENV=build/pyvenv
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check numpy scipy pytest hypothesis \
  "scikit-build-core>=0.10" "nanobind>=2.2"
# Both ways of installing the package build the same CMake project
# (python/CMakeLists.txt): `pip install ./python`, whose install the tests
# use, and `pip install .` at the root (pyproject.toml there), checked by
# building its wheel in the same build folder (nothing is compiled again)
# and solving with it.  No build isolation: the venv's scikit-build-core
# and nanobind, so that the second build finds the first one's tree.
PIPB=("$VENV/bin/python" -m pip --disable-pip-version-check)
BUILD=(--no-build-isolation --no-deps -C "build-dir=$PWD/build/pybuild" -C cmake.define.TRIDI_PY_WERROR=ON)
TRIDI_ENABLE_CUDA=OFF "${PIPB[@]}" install -q --force-reinstall "${BUILD[@]}" ./python
rm -rf build/pywheel build/pyroot
t_root=$(date +%s)
TRIDI_ENABLE_CUDA=OFF "${PIPB[@]}" wheel -q "${BUILD[@]}" -w build/pywheel .
"${PIPB[@]}" install -q --no-deps --target build/pyroot build/pywheel/tridi-*.whl
(cd build && PYTHONPATH=pyroot "../$VENV/bin/python" -c '
import numpy as np, tridi, os
assert os.path.dirname(tridi.__file__).endswith(os.path.join("pyroot", "tridi")), tridi.__file__
d = np.ones((3, 5))
x = tridi.solve(-1.0, 4.0, -1.0, d)
assert np.allclose(4 * x[:, 1:-1] - x[:, :-2] - x[:, 2:], 1)
print("test_python.sh: the wheel of `pip install .` at the root solves")')
echo "test_python.sh: root wheel built and checked in $(( $(date +%s) - t_root )) s"
t1=$(date +%s)
echo "test_python.sh: package built and installed in $((t1 - t0)) s"
# run from the tests folder so that the installed package, not python/src, is imported
(cd python/tests && HYPOTHESIS_STORAGE_DIRECTORY="$(pwd)/../../$VENV/hypothesis" \
  "../../$VENV/bin/python" -m pytest -q -p no:cacheprovider .)
echo "test_python.sh: done in $(( $(date +%s) - t0 )) s"
