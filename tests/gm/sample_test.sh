#!/bin/sh
# The data.win sample: built by the project's writer from samples/gm/sample.json, it must equal
# the committed sample, round-trip exactly, and take the example patches (a string rename that
# moves every later string, a TPAG field edit) into files that verify; string references are
# links by text, so a string inserted before the others moves nothing they name.
. "$(dirname "$0")/common.sh"
"$rebyte" build "$src/samples/gm/sample.json" -o "$tmp/built.win" || fail "build sample.json"
cmp -s "$tmp/built.win" "$src/samples/gm/sample.win" || fail "built sample differs from samples/gm/sample.win"
"$rebyte" verify "$src/samples/gm/sample.win" >/dev/null || fail "sample does not verify"
"$rebyte" info "$src/samples/gm/sample.win" | grep -q '"chunkAlignment":16' || fail "info shows the chunk alignment"
"$rebyte" apply "$src/samples/gm/rename-game.patch.json" "$src/samples/gm/sample.win" -o "$tmp/renamed.win" ||
    fail "rename patch"
"$rebyte" verify "$tmp/renamed.win" >/dev/null || fail "renamed file does not verify"
"$rebyte" dump "$tmp/renamed.win" -o "$tmp/renamed.json" || fail "dump renamed"
grep -q '"renamed by a patch"' "$tmp/renamed.json" || fail "new text present"
grep -q '"name": "renamed by a patch",' "$tmp/renamed.json" || fail "GEN8 name names the new text"
# the string moved the later strings by 12 bytes: the GEN8 display name must still point at its text
python3 - "$tmp/renamed.win" <<'PY' || fail "strrefs point at the moved strings"
import struct, sys
d = open(sys.argv[1], "rb").read()
display = struct.unpack_from("<I", d, 16 + 100)[0]
assert d[display:display + 18] == b"rebyte sample game", d[display:display + 18]
PY
# a reference to a text that is not in STRG is refused, saying what to add, and nothing is written
printf '%s' '[{"op":"replace","path":"/chunks/[id=GEN8]/name","value":"not a string of the table"}]' > "$tmp/bad.json"
expect_refused "a missing string" "$tmp/bad.json" "$src/samples/gm/sample.win" 'name: the string "not a string of the table" is not in STRG; add it'
# a string inserted before all the others: every reference still lands on its text
printf '%s' '[{"op":"add","path":"/chunks/[id=STRG]/strings/0","value":"inserted first"}]' > "$tmp/ins.json"
"$rebyte" apply -q "$tmp/ins.json" "$src/samples/gm/sample.win" -o "$tmp/ins.win" || fail "insert a string first"
"$rebyte" dump "$tmp/ins.win" -o "$tmp/ins.json.out" || fail "dump inserted"
"$rebyte" diff --plain "$src/samples/gm/sample.win" "$tmp/ins.win" > "$tmp/ins.diff"
[ "$(grep -c '"op"' "$tmp/ins.diff")" -eq 1 ] || fail "inserting a string changed more than the table: $(cat "$tmp/ins.diff")"
python3 - "$tmp/ins.win" <<'PY' || fail "references after the insertion"
import struct, sys
d = open(sys.argv[1], "rb").read()
for offset, text in ((16 + 4, b"sample"), (16 + 100, b"rebyte sample game")):
    at = struct.unpack_from("<I", d, offset)[0]
    assert d[at:at + len(text)] == text and struct.unpack_from("<I", d, at - 4)[0] == len(text), (offset, d[at:at + 20])
PY
"$rebyte" apply "$src/samples/gm/resize-tpag-item.patch.json" "$src/samples/gm/sample.win" -o "$tmp/tpag.win" ||
    fail "TPAG patch"
[ "$fails" -eq 0 ] && echo "datawin sample: ok"
[ "$fails" -eq 0 ]
