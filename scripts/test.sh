#!/usr/bin/env bash
# Build tridi and run the whole test suite: the normal build with warnings as
# errors (the CUDA code is compiled too wherever nvcc exists; GPU tests skip
# without a GPU; the Fortran module and its tests wherever gfortran exists),
# then the same suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# then the Python package built into a virtual environment under build/ and
# its pytest suite (scripts/test_python.sh).  First scripts/deps.sh checks
# for the tools and installs what is missing (apt-get, where there is one).
#   ./scripts/test.sh            (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh test
jobs=$(nproc 2>/dev/null || echo 2)

echo "== build (Release, -Werror) =="
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Release -DTRIDI_WERROR=ON >/dev/null
cmake --build build/test -j "$jobs"

echo "== build (AddressSanitizer + UBSan, CPU only) =="
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DTRIDI_WERROR=ON \
  -DTRIDI_SANITIZE=address,undefined -DTRIDI_ENABLE_CUDA=OFF -DTRIDI_BUILD_TOOLS=OFF >/dev/null
cmake --build build/asan -j "$jobs"

echo "== tests under AddressSanitizer + UBSan =="
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1500

echo "== tests =="
ctest --test-dir build/test --output-on-failure -j "$jobs" --timeout 900

echo "== Python package (virtual environment build/pyvenv, pytest) =="
./scripts/test_python.sh
