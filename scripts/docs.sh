#!/usr/bin/env bash
# The API reference: Doxygen on the public headers include/tridi.h and tridi_fft.h, every
# warning an error (an undocumented function, parameter or enumerator, a
# @param that names no parameter, ...).  HTML goes to OUT_DIR/html.
#   ./scripts/docs.sh [--no-install] [OUT_DIR]     (default OUT_DIR: build/apidoc)
# Installs doxygen with apt-get when it is missing and apt-get exists (not
# with --no-install: the CTest test docs.api uses that, and exits 77,
# "skipped", where there is no doxygen).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
install=1
out=$root/build/apidoc
for a in "$@"; do
  case "$a" in
    --no-install) install=0 ;;
    -*) echo "usage: docs.sh [--no-install] [OUT_DIR]" >&2; exit 2 ;;
    *) out=$a ;;
  esac
done
if ! command -v doxygen >/dev/null 2>&1; then
  if [ "$install" = 1 ] && command -v apt-get >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    echo "docs.sh: installing doxygen" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends doxygen >/dev/null
  else
    echo "docs.sh: doxygen not found: skipped (install doxygen)" >&2
    exit 77
  fi
fi
mkdir -p "$out"
version=$(sed -n 's/^#define TRIDI_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' "$root/include/tridi.h" |
  paste -sd.)
warnings=$out/warnings.log
# WARN_AS_ERROR=FAIL_ON_WARNINGS: every warning is reported, then the run fails
rc=0
doxygen - >"$out/doxygen.log" 2>&1 <<EOF_DOXYFILE || rc=$?
PROJECT_NAME           = tridi
PROJECT_NUMBER         = $version
PROJECT_BRIEF          = "Batched tridiagonal solvers for CPUs and NVIDIA GPUs"
INPUT                  = $root/include/tridi.h $root/include/tridi_fft.h
OUTPUT_DIRECTORY       = $out
STRIP_FROM_PATH        = $root
OPTIMIZE_OUTPUT_FOR_C  = YES
JAVADOC_AUTOBRIEF      = YES
MARKDOWN_SUPPORT       = YES
EXTRACT_ALL            = NO
EXTRACT_STATIC         = NO
ENABLE_PREPROCESSING   = YES
MACRO_EXPANSION        = YES
EXPAND_ONLY_PREDEF     = YES
PREDEFINED             = TRIDI_API=
WARNINGS               = YES
WARN_IF_UNDOCUMENTED   = YES
WARN_IF_DOC_ERROR      = YES
WARN_NO_PARAMDOC       = NO
WARN_IF_INCOMPLETE_DOC = YES
WARN_AS_ERROR          = FAIL_ON_WARNINGS
WARN_LOGFILE           = $warnings
QUIET                  = YES
GENERATE_HTML          = YES
GENERATE_LATEX         = NO
HAVE_DOT               = NO
EOF_DOXYFILE
if [ -s "$warnings" ]; then
  cat "$warnings" >&2
  echo "docs.sh: $(wc -l <"$warnings") doxygen warning(s) in include/tridi.h" >&2
  exit 1
fi
[ "$rc" = 0 ] || { cat "$out/doxygen.log" >&2; exit 1; }
echo "API reference: $out/html/index.html"
