#!/bin/sh
# The data.win sample: built by the project's writer from samples/gm/sample.json, it must equal
# the committed sample, round-trip exactly, and take the example patches (a string rename that
# moves every later string, a TPAG field edit) into files that verify.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
"$rebyte" build "$src/samples/gm/sample.json" -o "$tmp/built.win" || fail "build sample.json"
cmp -s "$tmp/built.win" "$src/samples/gm/sample.win" || fail "built sample differs from samples/gm/sample.win"
"$rebyte" verify "$src/samples/gm/sample.win" >/dev/null || fail "sample does not verify"
"$rebyte" info "$src/samples/gm/sample.win" | grep -q '"chunkAlignment":16' || fail "info shows the chunk alignment"
"$rebyte" apply "$src/samples/gm/rename-first-string.patch.json" "$src/samples/gm/sample.win" -o "$tmp/renamed.win" ||
    fail "rename patch"
"$rebyte" verify "$tmp/renamed.win" >/dev/null || fail "renamed file does not verify"
# GEN8's name (string 0) must still be string 0, now with the new text, after the strings moved
"$rebyte" dump "$tmp/renamed.win" -o "$tmp/renamed.json" || fail "dump renamed"
grep -q '"renamed by a patch"' "$tmp/renamed.json" || fail "new text present"
grep -q '"name": 0,' "$tmp/renamed.json" || fail "GEN8 name still links string 0"
# the string moved the later strings by 12 bytes: the GEN8 display name (string 2) must point at it
python3 - "$tmp/renamed.win" <<'PY' || fail "strrefs point at the moved strings"
import struct, sys
d = open(sys.argv[1], "rb").read()
display = struct.unpack_from("<I", d, 16 + 100)[0]
assert d[display:display + 18] == b"rebyte sample game", d[display:display + 18]
PY
"$rebyte" apply "$src/samples/gm/resize-tpag-item.patch.json" "$src/samples/gm/sample.win" -o "$tmp/tpag.win" ||
    fail "TPAG patch"
[ "$fails" -eq 0 ] && echo "datawin sample: ok"
[ "$fails" -eq 0 ]
