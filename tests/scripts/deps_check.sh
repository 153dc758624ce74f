#!/usr/bin/env bash
# scripts/deps.sh checks for tools, not for Debian packages (CTest test
# scripts.deps_check): with a PATH holding every command of this machine but
# dpkg-query, dpkg and apt-get, `deps.sh --check` must succeed (everything is
# here); with a C compiler that cannot link cmocka, `--check bench` must
# still succeed (the benchmark needs no test framework) and `--check` (the
# tests) must fail naming cmocka; without cmake it must fail naming cmake.
#   deps_check.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
fail() { echo "deps check: FAILED: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/bin"
# every command on PATH (first one wins), but the Debian package tools
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name=${f##*/}
    case "$name" in dpkg | dpkg-* | apt | apt-* | aptitude) continue ;; esac
    [ -x "$f" ] && [ ! -d "$f" ] && [ ! -e "$work/bin/$name" ] && ln -s "$f" "$work/bin/$name"
  done
done
[ ! -e "$work/bin/dpkg-query" ] && [ ! -e "$work/bin/apt-get" ] || fail "could not hide dpkg-query/apt-get"
bash=$(command -v bash)
deps() { env PATH="$1" "$bash" "$src/scripts/deps.sh" "${@:2}"; }

echo "== everything present, no dpkg-query/apt-get: deps.sh --check"
deps "$work/bin" --check || fail "deps.sh --check failed with everything present"
deps "$work/bin" --check bench || fail "deps.sh --check bench failed with everything present"
# without --check and with nothing missing it installs nothing: no apt-get needed
deps "$work/bin" || fail "deps.sh (install mode) failed with everything present"

echo "== a C compiler that cannot link cmocka"
mkdir -p "$work/nocmocka"
realcc=$(readlink -f "$work/bin/cc")
cat >"$work/nocmocka/cc" <<EOS
#!/bin/sh
for a in "\$@"; do [ "\$a" = -lcmocka ] && exit 1; done
exec "$realcc" "\$@"
EOS
chmod +x "$work/nocmocka/cc"
deps "$work/nocmocka:$work/bin" --check bench || fail "deps.sh --check bench needs cmocka"
if out=$(deps "$work/nocmocka:$work/bin" --check 2>&1); then fail "deps.sh --check passed without cmocka"; fi
grep -q "missing: cmocka" <<<"$out" || fail "deps.sh --check does not name cmocka: $out"
if out=$(deps "$work/nocmocka:$work/bin" 2>&1); then fail "deps.sh passed without cmocka and apt-get"; fi
grep -q "install those with your package manager" <<<"$out" || fail "no hint to install by hand: $out"

echo "== no cmake"
rm "$work/bin/cmake"
if out=$(deps "$work/bin" --check 2>&1); then fail "deps.sh --check passed without cmake"; fi
grep -q "missing: cmake" <<<"$out" || fail "deps.sh --check does not name cmake: $out"
echo "deps check: passed"
