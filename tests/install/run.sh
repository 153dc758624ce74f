#!/usr/bin/env bash
# Install a built tridi tree into a temporary prefix and build plain-C
# consumers against it, as a user would (CTest test "install", registered by
# tests/CMakeLists.txt; see tests/README.md):
#   - the install is moved after `cmake --install --prefix`, so nothing may
#     depend on the prefix it was installed to (tridi.pc: ${pcfiledir});
#   - libtridi.so: soname libtridi.so.<major>, the CUDA runtime inside it
#     (no libcudart needed, none of its symbols exported); it exports exactly
#     the functions tridi.h declares (nm -D against the header's TRIDI_API);
#   (a) find_package(tridi) + tridi::tridi        -> needs libtridi.so
#   (b) find_package(tridi) + tridi::tridi_static -> needs no libtridi.so
#   (c) cc app.c $(pkg-config --cflags --libs tridi)
#   (d) cc app.c $(pkg-config --static --cflags --libs tridi), with only
#       libtridi.a installed (a copy of the prefix without libtridi.so)
#   (e) a C++-only project (project(x LANGUAGES CXX), consumer_cxx/):
#       find_package(tridi) + tridi::tridi, and + tridi::tridi_static
#   (f) a Fortran-only project (consumer_fortran/): find_package(tridi) +
#       tridi::tridi_fortran, `use tridi` (where tridi has its Fortran module)
#   Neither (e) nor (f) enables C: the package must need no C compiler (nor
#   OpenMP_C), also for a CUDA-enabled build (nor CUDA).
# Each consumer (tests/install/consumer/app.c) solves batches on the CPU and
# checks the residuals; where no NVIDIA driver is installed it also checks
# that the CUDA backend reports itself unavailable, cleanly.
#
#   run.sh BUILD_DIR WORK_DIR CMAKE CC CXX FC PKG_CONFIG HAVE_CUDA SHARED STATIC [SANITIZE]
# CXX, FC: the C++ and Fortran compilers of (e) and (f) ("" when there is
# none: that consumer is skipped, and says so); SHARED/STATIC: ON when that
# library is installed; SANITIZE: the build's -fsanitize list (its consumers
# must link the sanitizer runtime too).
set -euo pipefail
build=$1 work=$2 cmake=$3 cc=$4 cxx=$5 fc=$6 pkgconfig=$7 have_cuda=$8 shared=$9 static=${10}
sanitize=${11:-}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/consumer

is_on() { case "${1^^}" in ON | 1 | TRUE | YES) return 0 ;; *) return 1 ;; esac; }
fail() { echo "install test: FAILED: $*" >&2; exit 1; }
step() { echo "== $*"; }
# the DT_NEEDED entries of a binary, one a line (captured first: no early
# exit of a reader may break a pipeline under pipefail)
needed() {
  local d
  d=$(readelf -d "$1")
  sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$d"
}
has() { grep -qE "$2" <<<"$1"; } # has TEXT REGEX

cflags=(-std=c11 -Wall -Wextra -Werror -pedantic)
san=()
if [ -n "$sanitize" ]; then san=(-fsanitize="$sanitize" -fno-omit-frame-pointer); fi

# no NVIDIA driver here: the CUDA backend must say so (else: either answer)
want_cuda=0
if is_on "$have_cuda"; then
  cache=$(/sbin/ldconfig -p 2>/dev/null || true)
  if has "$cache" 'libcuda\.so\.1' || [ -e /dev/nvidiactl ]; then want_cuda=any; fi
fi

rm -rf "$work"
mkdir -p "$work"
step "install $build into a temporary prefix, then move it"
"$cmake" --install "$build" --prefix "$work/stage" >"$work/install.log"
mv "$work/stage" "$work/prefix"
prefix=$work/prefix
pc=$(find "$prefix" -path '*/pkgconfig/tridi.pc')
[ -f "$pc" ] || fail "tridi.pc not installed (found: '$pc')"
libdir=$(dirname "$(dirname "$pc")")
[ -f "$prefix/include/tridi.h" ] || fail "tridi.h not installed"
[ -f "$prefix/include/tridi_fft.h" ] || fail "tridi_fft.h not installed"
if grep -q "$work/stage" -r "$prefix" --include='*.pc' --include='*.cmake'; then
  fail "the installed package names the install prefix $work/stage"
fi

if is_on "$shared"; then
  step "libtridi.so"
  so=$(readlink -f "$libdir/libtridi.so")
  [ -f "$so" ] || fail "libtridi.so not installed"
  soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [[ $soname =~ ^libtridi\.so\.[0-9]+$ ]] || fail "soname '$soname'"
  [ -e "$libdir/$soname" ] || fail "$soname not installed beside the library"
  deps=$(needed "$so")
  if has "$deps" cudart; then fail "libtridi.so needs libcudart: $deps"; fi
  syms=$(nm -D --defined-only "$so")
  if has "$syms" ' (cuda[A-Z]|__cuda)'; then fail "libtridi.so exports CUDA runtime symbols"; fi
  # exactly the public API: the functions tridi.h declares (TRIDI_API), no
  # internal symbol (tridi_cpu_*, tridi_ref_*, tridi_set_error, C++ ...)
  api=$(sed -n 's/^TRIDI_API .*[ *]\(tridi_[a-z0-9_]*\)(.*/\1/p' "$prefix/include/tridi.h" "$prefix/include/tridi_fft.h" | sort -u)
  [ "$(wc -l <<<"$api")" -ge 40 ] || fail "found only $(wc -l <<<"$api") TRIDI_API functions in tridi.h"
  # a function declared without TRIDI_API would be hidden, missing from the .so
  bare=$(grep -nE '^(const |unsigned |signed )?[a-z_0-9]+[ *]+tridi_[a-z0-9_]+\(' "$prefix/include/tridi.h" "$prefix/include/tridi_fft.h" || true)
  [ -z "$bare" ] || fail "tridi.h declares functions without TRIDI_API (they are not exported): $bare"
  exported=$(awk '$2 ~ /^[TtWwDdBbVvRr]$/ {print $3}' <<<"$syms" | sed 's/@.*//' | sort -u)
  extra=$(comm -13 <(echo "$api") <(echo "$exported"))
  missing=$(comm -23 <(echo "$api") <(echo "$exported"))
  [ -z "$missing" ] || fail "libtridi.so does not export these functions of tridi.h:" $missing
  [ -z "$extra" ] || fail "libtridi.so exports symbols that are not tridi.h's API:" $extra
  echo "exports: the $(wc -l <<<"$api") functions of tridi.h and tridi_fft.h, nothing else"
  echo "soname $soname, needs:" $deps
fi
if ! is_on "$shared" && [ -e "$libdir/libtridi.so" ]; then fail "libtridi.so installed with TRIDI_BUILD_SHARED off"; fi
if is_on "$static" && [ ! -f "$libdir/libtridi.a" ]; then fail "libtridi.a not installed"; fi

cmake_consumer() { # name target
  local b=$work/$1
  step "($1) find_package(tridi) + $2"
  "$cmake" -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_PREFIX_PATH="$prefix" -DTRIDI_TARGET="$2" \
    -DCMAKE_C_FLAGS="${san[*]}" -DCMAKE_EXE_LINKER_FLAGS="${san[*]}" >"$b.log" 2>&1 ||
    { cat "$b.log"; fail "($1) configure"; }
  grep -q "tridi_DIR: $prefix/" "$b.log" || { cat "$b.log"; fail "($1) found a tridi outside $prefix"; }
  "$cmake" --build "$b" >>"$b.log" 2>&1 || { cat "$b.log"; fail "($1) build"; }
  "$b/app" "$want_cuda" || fail "($1) run"
}

pc_consumer() { # name pcdir [--static]
  local name=$1 pcdir=$2
  shift 2
  step "($name) cc app.c \$(pkg-config $* --cflags --libs tridi)"
  local flags
  flags=$(PKG_CONFIG_PATH="$pcdir" "$pkgconfig" "$@" --cflags --libs tridi) || fail "($name) pkg-config"
  echo "cc app.c $flags"
  [[ $flags == *"$work/"* ]] || fail "($name) pkg-config points outside the install: $flags"
  # shellcheck disable=SC2086  # the flags are words
  "$cc" "${cflags[@]}" "${san[@]}" "$src/app.c" $flags -o "$work/$name" || fail "($name) build"
  LD_LIBRARY_PATH="$(dirname "$pcdir")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/$name" "$want_cuda" ||
    fail "($name) run"
}

if is_on "$shared"; then
  cmake_consumer shared tridi::tridi
  has "$(needed "$work/shared/app")" '^libtridi\.so' || fail "(shared) app does not use libtridi.so"
  pc_consumer pkgconfig "$libdir/pkgconfig"
  has "$(needed "$work/pkgconfig")" '^libtridi\.so' || fail "(pkgconfig) app does not use libtridi.so"
fi
if is_on "$static"; then
  cmake_consumer static tridi::tridi_static
  if has "$(needed "$work/static/app")" libtridi; then fail "(static) app needs libtridi.so"; fi
  # only the archive, in a copy of the prefix: -ltridi must find libtridi.a
  cp -a "$prefix" "$work/static-prefix"
  rm -f "$work/static-prefix/${libdir#"$prefix"/}"/libtridi.so*
  pc_consumer pkgconfig-static "$work/static-prefix/${libdir#"$prefix"/}/pkgconfig" --static
  if has "$(needed "$work/pkgconfig-static")" libtridi; then fail "(pkgconfig-static) app needs libtridi.so"; fi
fi
# (e), (f): projects without the C language
lang_consumer() { # name dir language compiler target run-args...
  local name=$1 dir=$2 lang=$3 comp=$4 target=$5 b=$work/$1
  shift 5
  step "($name) project(x LANGUAGES $lang) + find_package(tridi) + $target"
  "$cmake" -S "$here/$dir" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_${lang}_COMPILER="$comp" \
    -DCMAKE_PREFIX_PATH="$prefix" -DTRIDI_TARGET="$target" \
    -DCMAKE_${lang}_FLAGS="${san[*]}" -DCMAKE_EXE_LINKER_FLAGS="${san[*]}" >"$b.log" 2>&1 ||
    { cat "$b.log"; fail "($name) configure"; }
  grep -q "tridi_DIR: $prefix/" "$b.log" || { cat "$b.log"; fail "($name) found a tridi outside $prefix"; }
  if grep -qE "The (C|CUDA) compiler identification" "$b.log"; then
    cat "$b.log"
    fail "($name) the project enabled C or CUDA"
  fi
  "$cmake" --build "$b" >>"$b.log" 2>&1 || { cat "$b.log"; fail "($name) build"; }
  "$b/app" "$@" || fail "($name) run"
}
if [ -z "$cxx" ]; then
  echo "== (cxx) skipped: no C++ compiler"
else
  if is_on "$shared"; then lang_consumer cxx consumer_cxx CXX "$cxx" tridi::tridi; fi
  if is_on "$static"; then
    lang_consumer cxx-static consumer_cxx CXX "$cxx" tridi::tridi_static
    if has "$(needed "$work/cxx-static/app")" libtridi; then fail "(cxx-static) app needs libtridi.so"; fi
  fi
fi
if [ -z "$fc" ]; then
  echo "== (fortran) skipped: tridi was built without its Fortran module"
else
  [ -n "$(find "$prefix" -name tridi.mod)" ] || fail "tridi.mod not installed"
  lang_consumer fortran consumer_fortran Fortran "$fc" tridi::tridi_fortran
fi
echo "install test: passed"
