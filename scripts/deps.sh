#!/usr/bin/env bash
# Check for what building tridi needs and install what is missing, where a
# package manager is known (apt-get: Debian, Ubuntu); elsewhere say what to
# install by hand.  What is checked is the tool or library itself (a command
# on PATH, a header that compiles, a library that links), never a package
# database, so that a machine with everything installed any way passes.
#   scripts/deps.sh [--check] [test|bench]
#     test   (default; scripts/test.sh) the build, the test suite (cmocka),
#            LAPACK, the optional Fortran/Python parts
#     bench  (scripts/bench.sh) the build and LAPACK (the baseline); no test
#            framework
#     --check  install nothing: list what is missing, exit 1 if anything is
# Exit status 0 when everything required is there (after installing).
set -euo pipefail
check=0
what=test
for a in "$@"; do
  case "$a" in
    --check) check=1 ;;
    test | bench) what=$a ;;
    *) echo "usage: deps.sh [--check] [test|bench]" >&2; exit 2 ;;
  esac
done

have() { command -v "$1" >/dev/null 2>&1; }
cc=${CC:-cc}
# compiles and links a C program ($1) with the extra arguments after it
links() {
  local src=$1 tmp
  shift
  have "$cc" || return 1
  tmp=$(mktemp -d)
  printf '%s\n' "$src" >"$tmp/t.c"
  if "$cc" "$tmp/t.c" -o "$tmp/t" "$@" >/dev/null 2>&1; then rm -rf "$tmp"; return 0; fi
  rm -rf "$tmp"
  return 1
}

# missing: "what (Debian package)" pairs; optional ones are only installed
# where apt-get is, never an error
missing=() apt=() optional=()
need() { missing+=("$1"); apt+=("$2"); }
want() { optional+=("$1"); apt+=("$2"); }

have cmake || need "cmake >= 3.22" cmake
have "$cc" || need "a C11 compiler with OpenMP (cc: gcc or clang)" gcc
have make || have ninja || need "make (or ninja)" make
have pkg-config || have pkgconf || need "pkg-config" pkg-config
links 'int main(void) { return 0; }' -fopenmp || { have "$cc" && need "OpenMP for $cc (libgomp)" libgomp1; }
# LAPACK: the test oracle and the benchmark baseline (any LAPACK: OpenBLAS,
# the reference one, ...), found as CMake's FindLAPACK finds it
lapack_src='void dgtsv_(int*, int*, double*, double*, double*, double*, int*, int*);
int main(void) { int n = 1, r = 1, l = 1, i; double a = 0, b = 2, c = 0, d = 2;
  dgtsv_(&n, &r, &a, &b, &c, &d, &l, &i); return i; }'
if ! links "$lapack_src" -llapack && ! links "$lapack_src" -lopenblas; then
  need "LAPACK (e.g. OpenBLAS; for the tests and the benchmark baselines)" libopenblas-dev
fi
# FFTW: the FFT tests' oracle for large n and the CPU baseline of `tridi
# bench --problem fft` (optional: without it those are skipped)
links '#include <fftw3.h>
int main(void) { fftw_cleanup(); fftwf_cleanup(); return 0; }' -lfftw3 -lfftw3f ||
  want "FFTW 3 (the FFT tests' oracle, the CPU FFT baseline)" libfftw3-dev
if [ "$what" = test ]; then
  links '#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
int main(void) { return 0; }' -lcmocka || need "cmocka (the test framework)" libcmocka-dev
  # optional parts: the Python package's tests (a venv and Python's
  # headers; C++ for its extension) and the Fortran module
  have c++ || want "a C++ compiler (the Python extension)" g++
  have gfortran || want "gfortran (the Fortran module)" gfortran
  if have python3; then
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || want "python3 venv" python3-venv
    python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
      >/dev/null 2>&1 || want "Python's headers" python3-dev
  fi
fi

if [ ${#missing[@]} -eq 0 ] && { [ ${#optional[@]} -eq 0 ] || [ "$check" = 1 ]; }; then
  for o in "${optional[@]+"${optional[@]}"}"; do echo "deps.sh: optional, not found: $o" >&2; done
  exit 0
fi
if [ "$check" = 1 ] || ! have apt-get; then
  for m in "${missing[@]+"${missing[@]}"}"; do echo "deps.sh: missing: $m" >&2; done
  for o in "${optional[@]+"${optional[@]}"}"; do echo "deps.sh: optional, not found: $o" >&2; done
  if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
  if [ "$check" = 0 ]; then
    echo "deps.sh: no apt-get here: install those with your package manager (e.g. dnf:" \
         "cmake gcc make pkgconf lapack-devel libcmocka-devel; brew: cmake libomp openblas" \
         "cmocka), then run again" >&2
  fi
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "deps.sh: installing ${apt[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${apt[@]}" >/dev/null
