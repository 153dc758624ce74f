#!/usr/bin/env bash
# Install what building and testing tridi needs on Debian/Ubuntu, skipping
# what is already there.  Used by scripts/test.sh and scripts/bench.sh.
set -euo pipefail
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v c++ >/dev/null 2>&1 || need+=(g++)       # the Python extension (nanobind)
command -v gfortran >/dev/null 2>&1 || need+=(gfortran) # the Fortran module (optional in CMake)
# The Python package's tests (scripts/test_python.sh): a venv and Python's headers.
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
  python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    >/dev/null 2>&1 || need+=(python3-dev)
fi
command -v make >/dev/null 2>&1 || need+=(make)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
have_pkg libcmocka-dev || need+=(libcmocka-dev)
# LAPACK: the test oracle and the benchmark baseline (OpenBLAS provides it).
if ! have_pkg libopenblas-dev && ! have_pkg liblapack-dev; then need+=(libopenblas-dev); fi
if [ "${TRIDI_WITH_PLOTS:-0}" = 1 ] && ! python3 -c 'import matplotlib' >/dev/null 2>&1; then
  need+=(python3-matplotlib)
fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps.sh: missing ${need[*]} and no apt-get: install them by hand" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "deps.sh: installing ${need[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
