#!/bin/sh
# The data.win sample: built by the project's writer from samples/datawin/sample.json, it must equal
# the committed sample, round-trip exactly, and take the example patches (the game renamed with
# one operation: the new text is appended to STRG; a TPAG field edit) into files that verify;
# string references are links by text, so a string inserted before the others moves nothing they
# name.
. "$(dirname "$0")/common.sh"
"$rebyte" build "$src/samples/datawin/sample.json" -o "$tmp/built.win" || fail "build sample.json"
cmp -s "$tmp/built.win" "$src/samples/datawin/sample.win" || fail "built sample differs from samples/datawin/sample.win"
"$rebyte" verify "$src/samples/datawin/sample.win" >/dev/null || fail "sample does not verify"
"$rebyte" info "$src/samples/datawin/sample.win" | grep -q '"chunkAlignment":16' || fail "info shows the chunk alignment"
"$rebyte" apply "$src/samples/datawin/rename-game.patch.json" "$src/samples/datawin/sample.win" -o "$tmp/renamed.win" ||
    fail "rename patch"
"$rebyte" verify "$tmp/renamed.win" >/dev/null || fail "renamed file does not verify"
"$rebyte" dump "$tmp/renamed.win" -o "$tmp/renamed.json" || fail "dump renamed"
grep -q '"name": "renamed by a patch",' "$tmp/renamed.json" || fail "GEN8 name names the new text"
# STRG is derived from the references: the new text is appended, the old one stays (fileName names
# it) and every reference still points at its text
python3 - "$tmp/renamed.json" "$tmp/renamed.win" <<'PY' || fail "the renamed file's strings and references"
import json, struct, sys
doc = json.load(open(sys.argv[1]))
strg = next(c for c in doc["chunks"] if c["id"] == "STRG")
assert strg["strings"] == ["sample", "Default", "rebyte sample game", "renamed by a patch"], strg["strings"]
d = open(sys.argv[2], "rb").read()
for offset, text in ((16 + 4, b"sample"), (16 + 40, b"renamed by a patch"), (16 + 100, b"rebyte sample game")):
    at = struct.unpack_from("<I", d, offset)[0]
    assert d[at:at + len(text)] == text and struct.unpack_from("<I", d, at - 4)[0] == len(text), (offset, d[at:at + 20])
PY
# the same edit made on the dump and built through the description gives the same bytes
"$rebyte" dump "$src/samples/datawin/sample.win" -o "$tmp/whole.json" &&
    "$rebyte" resolve "$src/samples/datawin/rename-game.patch.json" "$src/samples/datawin/sample.win" >"$tmp/plain.json" &&
    "$rebyte" json-patch "$tmp/whole.json" "$tmp/plain.json" >"$tmp/whole2.json" &&
    "$rebyte" build "$tmp/whole2.json" -o "$tmp/renamed2.win" --source "$src/samples/datawin/sample.win" &&
    cmp -s "$tmp/renamed.win" "$tmp/renamed2.win" || fail "the edit built from the dump gives other bytes than apply"
# a string inserted before all the others: every reference still lands on its text
printf '%s' '[{"op":"add","path":"/chunks/[id=STRG]/strings/0","value":"inserted first"}]' > "$tmp/ins.json"
"$rebyte" apply -q "$tmp/ins.json" "$src/samples/datawin/sample.win" -o "$tmp/ins.win" || fail "insert a string first"
"$rebyte" dump "$tmp/ins.win" -o "$tmp/ins.json.out" || fail "dump inserted"
"$rebyte" diff --plain "$src/samples/datawin/sample.win" "$tmp/ins.win" > "$tmp/ins.diff"
[ "$(grep -c '"op"' "$tmp/ins.diff")" -eq 1 ] || fail "inserting a string changed more than the table: $(cat "$tmp/ins.diff")"
python3 - "$tmp/ins.win" <<'PY' || fail "references after the insertion"
import struct, sys
d = open(sys.argv[1], "rb").read()
for offset, text in ((16 + 4, b"sample"), (16 + 100, b"rebyte sample game")):
    at = struct.unpack_from("<I", d, offset)[0]
    assert d[at:at + len(text)] == text and struct.unpack_from("<I", d, at - 4)[0] == len(text), (offset, d[at:at + 20])
PY
"$rebyte" apply "$src/samples/datawin/resize-tpag-item.patch.json" "$src/samples/datawin/sample.win" -o "$tmp/tpag.win" ||
    fail "TPAG patch"
[ "$fails" -eq 0 ] && echo "datawin sample: ok"
[ "$fails" -eq 0 ]
