#!/usr/bin/env bash
# The Python package's stage of the test suite: build tridi's Python package
# from this tree into a virtual environment (build/pyvenv) and run its tests
# (python/tests, which also run the examples of docs/python.md).
#
#   ./scripts/test_python.sh         (from anywhere; scripts/test.sh runs it)
#
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
"$VENV/bin/python" -m pip install -q --disable-pip-version-check numpy scipy pytest hypothesis
# build isolation fetches scikit-build-core and nanobind (pyproject.toml)
TRIDI_ENABLE_CUDA=OFF "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
  --force-reinstall --no-deps -C cmake.define.TRIDI_PY_WERROR=ON ./python
t1=$(date +%s)
echo "test_python.sh: package built and installed in $((t1 - t0)) s"
# run from the tests folder so that the installed package, not python/src, is imported
(cd python/tests && HYPOTHESIS_STORAGE_DIRECTORY="$(pwd)/../../$VENV/hypothesis" \
  "../../$VENV/bin/python" -m pytest -q -p no:cacheprovider .)
echo "test_python.sh: done in $(( $(date +%s) - t0 )) s"
