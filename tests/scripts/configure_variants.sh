#!/usr/bin/env bash
# Every combination of the library options a user may choose configures and
# generates (CTest test install.configure_variants): shared only, static
# only, and both, each with the Fortran module where a Fortran compiler is
# found.  Configure and generate only (a few seconds each): CMake's export
# checks (a PRIVATE dependency of a static library must be exported) run at
# the generate step, so a missing export fails here without a build.
#   configure_variants.sh SOURCE_DIR WORK_DIR CMAKE
set -euo pipefail
src=$1 work=$2 cmake=$3
mkdir -p "$work"
rc=0
for v in "ON ON" "ON OFF" "OFF ON"; do
  set -- $v
  b="$work/shared$1-static$2"
  rm -rf "$b"
  if "$cmake" -S "$src" -B "$b" -DTRIDI_BUILD_SHARED=$1 -DTRIDI_BUILD_STATIC=$2 \
       -DCMAKE_CUDA_ARCHITECTURES=90 -DTRIDI_BUILD_TESTS=OFF -DTRIDI_BUILD_TOOLS=OFF \
       -DTRIDI_BUILD_EXAMPLES=OFF >"$b.log" 2>&1; then
    echo "shared=$1 static=$2: configured and generated"
  else
    echo "shared=$1 static=$2: FAILED" >&2
    grep -E "Error|error" "$b.log" | head -10 >&2
    rc=1
  fi
done
exit $rc
