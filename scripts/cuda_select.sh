#!/usr/bin/env bash
# Host-only check of the CUDA backend's plan-time choices: builds libtridi
# from the source tree SRC (default: this repository) with nvcc, links it
# against a stand-in CUDA runtime (scripts/cuda_select/fake_cudart.cpp: a
# faked H100, or an A100 with FAKE_CUDA_DEVICE=a100; no driver, no kernel
# runs) and prints, for a grid of (dtype, layout, n, batch) plans, the
# kernel, workspace, attributes, occupancy queries and every launch with its
# arguments.  Run it on two trees and diff the outputs to show that a change
# keeps every choice:
#   scripts/cuda_select.sh OUT [SRC] [cmake options...]   -> OUT/select.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
src=$(cd "${2:-$here/..}" && pwd)
shift $(( $# >= 2 ? 2 : 1 ))
export PATH=/usr/local/cuda/bin:$PATH
# cuobjdump: the CUDA install's, else the nvidia-cuda-cuobjdump wheel's
cuobjdump=$(command -v cuobjdump || true)
if [ -z "$cuobjdump" ]; then
  [ -d "$out/nvtools" ] || pip install -q --target "$out/nvtools" nvidia-cuda-cuobjdump >/dev/null
  cuobjdump=$(find "$out/nvtools" -name cuobjdump -type f | head -1)
fi
cmake -S "$src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DTRIDI_BUILD_TESTS=OFF -DTRIDI_BUILD_EXAMPLES=OFF -DTRIDI_BUILD_TOOLS=OFF -DTRIDI_BUILD_SHARED=OFF "$@" >/dev/null
cmake --build "$out/build" -j2 --target tridi_static >/dev/null
# registers and static shared memory of every kernel (the fake's occupancy)
find "$out/build/src/cuda" -name '*.o' -print0 | xargs -0 -n1 "$cuobjdump" -res-usage |
  awk '/Function /{f=$2; sub(":$","",f)} /REG:/{r=$1; s=$0; sub("REG:","",r); sub(/.*SHARED:/,"",s); sub(/ .*/,"",s); print f, r, s}' \
  >"$out/res.raw"
# Some cuobjdump versions (the 13.x wheel) count the 1 KiB of shared memory
# that sm_80+ reserves per block in SHARED: every kernel that uses shared
# memory then reports at least 1024, and the fake (which adds the reserve
# itself, and checks static + dynamic against the opt-in limit as the
# driver does) would count it twice.  Take it out where that is the case.
awk 'NR == FNR { if ($3 > 0 && (min == "" || $3 < min)) min = $3; next }
     { s = $3; if (min >= 1024 && s >= 1024) s -= 1024; print $1, $2, s }' "$out/res.raw" "$out/res.raw" \
  >"$out/res.txt"
g++ -O1 -std=c++17 -c "$here/cuda_select/fake_cudart.cpp" -I/usr/local/cuda/include -I"$src/include" -o "$out/fake_cudart.o"
gcc -O1 -std=c11 -c "$here/cuda_select/cases.c" -I"$src/include" -o "$out/cases.o"
g++ "$out/cases.o" "$out/fake_cudart.o" "$out/build/src/libtridi.a" -fopenmp -lm -o "$out/select"
for dev in h100 a100; do
  FAKE_CUDA_DEVICE=$dev FAKE_CUDA_RES="$out/res.txt" "$out/select" ${SELECT_ARGS:-} >"$out/select_$dev.txt"
done
echo "$out/select_h100.txt $out/select_a100.txt"
# every launch and attribute goes to the plan's device, and the caller's
# current device (0) is current again after each call
awk '/^case /{dev=$6} /^  (launch|setattr) dev=/{split($2,a,"="); n++; if ("dev=" a[2] != dev) bad++}
     /then device/{if ($NF != "current)" || $(NF-1) != 0) restore++}
     END{printf "device check: %d launches and attribute sets, %d on another device than the plan'"'"'s, %d calls leaving another device current\n", n, bad, restore;
         exit (bad || restore) ? 1 : 0}' "$out/select_h100.txt"
