#!/usr/bin/env bash
# Header dependencies of the .cu files are tracked: after a header in cuda/
# changes, ninja compiles exactly the .cu files that include it, directly or
# through another header. For each header: touch it (contents unchanged),
# ask ninja what it would run (-n: nothing is built), put its time back.
#   tests/header-deps.sh BUILDDIR    (meson test --suite build runs it)
set -euo pipefail
cuda=$(cd "$(dirname "$0")/../cuda" && pwd)
build=${1:?usage: header-deps.sh BUILDDIR}
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT

# includers H: the files of cuda/ that include H, directly or not
includers() {
  local todo=$1 seen="" h f
  while [ -n "$todo" ]; do
    set -- $todo
    h=$1
    shift
    todo="$*"
    for f in $(grep -l "^#include \"$h\"" "$cuda"/*.cu "$cuda"/*.cuh "$cuda"/*.h 2>/dev/null); do
      f=$(basename "$f")
      case " $seen " in *" $f "*) ;; *) seen="$seen $f"; todo="$todo $f" ;; esac
    done
  done
  echo $seen
}

# rebuilt H: the .cu files ninja would compile after H changes
rebuilt() {
  touch -r "$cuda/$1" "$stamp"
  touch "$cuda/$1"
  ninja -C "$build" -n -v 2>/dev/null | grep -o -- '-c [^ ]*\.cu' |
    sed 's|.*/||' | sort | tr '\n' ' ' || true
  touch -r "$stamp" "$cuda/$1"
}

if [ -n "$(ninja -C "$build" -n 2>/dev/null | grep -F '.cu.o')" ]; then
  echo "error: $build is not up to date: build it first" >&2
  exit 1
fi
failures=0 checked=0
for path in "$cuda"/*.cuh "$cuda"/*.h; do
  h=$(basename "$path")
  want=$(for f in $(includers "$h"); do echo "$f"; done | grep '\.cu$' | sort | tr '\n' ' ' || true)
  [ -n "$want" ] || continue
  got=$(rebuilt "$h")
  checked=$((checked + 1))
  if [ "$got" = "$want" ]; then
    echo "ok: $h -> $got"
  else
    echo "FAIL: $h: ninja would compile [$got], expected [$want]"
    failures=$((failures + 1))
  fi
done
echo "$checked headers checked, $failures failure(s)"
[ "$checked" -gt 0 ] && [ "$failures" -eq 0 ]
