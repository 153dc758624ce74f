#!/usr/bin/env bash
# The CUDA architectures a build gets when the user chooses none (CTest test
# cuda.default_archs; README "Requirements"): a fresh configure of this
# source tree must give machine code for sm_75, 80, 86, 89 and 90 (sm_70 too
# with nvcc < 13) and PTX for newer GPUs; -DCMAKE_CUDA_ARCHITECTURES and
# CUDAARCHS still choose.
#   cuda_default_archs.sh SOURCE_DIR WORK_DIR CMAKE
set -euo pipefail
src=$1 work=$2 cmake=$3
fail() { echo "default archs: FAILED: $*" >&2; exit 1; }
archs_of() { sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$1/CMakeCache.txt"; }
configure() { # dir args...
  local b=$1
  shift
  rm -rf "$b"
  "$cmake" -S "$src" -B "$b" -DTRIDI_ENABLE_CUDA=ON -DTRIDI_ENABLE_FORTRAN=OFF \
    -DTRIDI_BUILD_TESTS=OFF -DTRIDI_BUILD_TOOLS=OFF -DTRIDI_BUILD_EXAMPLES=OFF "$@" >"$b.log" 2>&1 ||
    { cat "$b.log"; fail "configure $*"; }
}
unset CUDAARCHS
mkdir -p "$work"
configure "$work/default"
archs=$(archs_of "$work/default")
echo "default: $archs"
for a in 75 80 86 89 90; do
  [[ ";$archs;" == *";$a-real;"* || ";$archs;" == *";$a;"* ]] || fail "no sm_$a in '$archs'"
done
[[ $archs == *-virtual* || $archs =~ (^|;)[0-9]+(;|$) ]] || fail "no PTX in '$archs'"
configure "$work/chosen" -DCMAKE_CUDA_ARCHITECTURES=86
[ "$(archs_of "$work/chosen")" = 86 ] || fail "-DCMAKE_CUDA_ARCHITECTURES=86 gave '$(archs_of "$work/chosen")'"
CUDAARCHS=89 configure "$work/env"
[ "$(archs_of "$work/env")" = 89 ] || fail "CUDAARCHS=89 gave '$(archs_of "$work/env")'"
echo "default archs: passed"
