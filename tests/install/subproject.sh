#!/usr/bin/env bash
# tridi's source tree used inside another CMake project, as a user vendors it
# (CTest test "install.subproject", tests/CMakeLists.txt): subproject/ with
#   (g) add_subdirectory(<tridi source>)
#   (h) FetchContent_Declare(tridi SOURCE_DIR <tridi source>) +
#       FetchContent_MakeAvailable
# each builds the library (CPU only, without its tests, tools and examples)
# and the consumer of consumer/app.c against tridi::tridi, and runs it.
#
#   subproject.sh SOURCE_DIR WORK_DIR CMAKE CC
set -euo pipefail
src=$1 work=$2 cmake=$3 cc=$4
here=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
fail() { echo "subproject test: FAILED: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
for use in add_subdirectory FetchContent; do
  b=$work/$use
  echo "== $use(tridi)"
  "$cmake" -S "$here/subproject" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
    -DTRIDI_SOURCE_DIR="$src" -DUSE="$use" >"$b.log" 2>&1 || { cat "$b.log"; fail "$use: configure"; }
  "$cmake" --build "$b" -j "$jobs" >>"$b.log" 2>&1 || { cat "$b.log"; fail "$use: build"; }
  "$b/app" any || fail "$use: run"
done
echo "subproject test: passed"
