#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/layers.py can fail: on a small house built here it must name a
# call from a floor up to a floor above, an include of a header from
# above and a circle of files, and pass the same house once they are
# gone.  CC and NM as for the build.
set -eu
CC=${CC:-cc}
dir=$(mktemp -d /tmp/flashbench-layers.XXXXXX)
trap 'rm -rf "$dir"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/low" "$dir/high" "$dir/build/low" "$dir/build/high"

build() {
	for f in low/a.c low/b.c high/c.c; do
		$CC -I"$dir/low" -I"$dir/high" -c -o "$dir/build/${f%.c}.o" \
			"$dir/$f"
	done
}

# low/a.c calls high/c.c (up), includes high/c.h (up); low/a.c and
# low/b.c call each other (a circle)
cat >"$dir/high/c.h" <<'X'
int c(void);
X
cat >"$dir/low/a.c" <<'X'
#include "c.h"
int b(void);
int a(int n) { return n ? b() : c(); }
X
cat >"$dir/low/b.c" <<'X'
int a(int n);
int b(void) { return a(0) + 1; }
X
cat >"$dir/high/c.c" <<'X'
int c(void) { return 2; }
X
build
if python3 "$here/layers.py" --root "$dir" --floors "low high" \
		>"$dir/out" 2>&1; then
	echo "layers-selftest: a bad house passed" >&2
	cat "$dir/out" >&2
	exit 1
fi
for want in "low/a.c -> high/c.c: calls c" \
	    "low/a.c -> high/c.h: includes c.h" \
	    "circle: low/a.c <-> low/b.c"; do
	grep -qF "$want" "$dir/out" || {
		echo "layers-selftest: not found: $want" >&2
		cat "$dir/out" >&2
		exit 1
	}
done

# the same house set right: high calls low, no circle
cat >"$dir/low/a.c" <<'X'
int a(int n) { return n + 1; }
X
cat >"$dir/low/b.c" <<'X'
int a(int n);
int b(void) { return a(0) + 1; }
X
cat >"$dir/high/c.c" <<'X'
int b(void);
int c(void) { return b() + 2; }
X
rm -f "$dir"/build/*/*.o
build
python3 "$here/layers.py" --root "$dir" --floors "low high" >"$dir/out" 2>&1 || {
	echo "layers-selftest: a good house failed" >&2
	cat "$dir/out" >&2
	exit 1
}
echo "layers-selftest: a bad house fails, a good one passes"
