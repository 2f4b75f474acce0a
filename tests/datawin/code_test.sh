#!/bin/sh
# CODE, VARI and FUNC edits on every corpus data.win (layouts: docs/formats/datawin.md "CODE" to
# "Occurrence chains"):
#  1. a code entry is renamed through its string reference (to a string added to STRG): the output
#     verifies, and re-reads as the input model with exactly those two changes;
#  2. a code entry's bytecode given back as base64 (the same bytes) writes the input byte for byte;
#  3. an empty code entry is added at the end of CODE: the pointer table grows by 4, so every
#     bytecode blob, VARI and FUNC move. VARI/FUNC first occurrences are derived from the entries'
#     variable/function references: each must land on the same instruction bytes, 4 bytes further on, and every
#     variable's occurrence chain must still end on its name's STRG index;
#  4. a reference outside every bytecode is refused, and nothing is written;
#  5. a TPAG item is added (TPAG comes before CODE): CODE, VARI and FUNC move as a whole and every
#     first occurrence must land on the same bytes, moved by as much as CODE. Where a chunk before
#     CODE is still opaque and holds absolute pointers, the edit is refused: that is reported, not failed.
. "$(dirname "$0")/common.sh"
require_corpus

for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" dump --blobs=base64 "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    python3 - "$tmp/in.json" "$tmp" <<'PY' || { fail "$name: CODE is not typed"; continue; }
import json, sys
doc = json.load(open(sys.argv[1]))
out = sys.argv[2]
chunks = doc["chunks"]
code = next(c for c in chunks if c["id"] == "CODE")
if "entries" not in code or not code["entries"]:
    sys.exit(1)
base = "/chunks/[id=CODE]/entries"
new = "rebyte renamed code entry"
add_string = {"op": "add", "path": "/chunks/[id=STRG]/strings/-", "value": new}
json.dump([add_string, {"op": "replace", "path": base + "/0/name", "value": new}], open(out + "/rename.json", "w"))
# the largest entry that has its own bytecode, given back as base64
k = max((i for i, e in enumerate(code["entries"]) if "bytecode" in e),
        key=lambda i: len(code["entries"][i]["bytecode"]["$base64"]))
json.dump([{"op": "replace", "path": "%s/%d/bytecode" % (base, k), "value": code["entries"][k]["bytecode"]}],
          open(out + "/same.json", "w"))
empty = {"name": new, "locals": 0, "arguments": 0, "bytecode": {"$base64": ""}}
json.dump([add_string, {"op": "add", "path": base + "/-", "value": empty}], open(out + "/grow.json", "w"))
i = next(i for i, e in enumerate(code["entries"]) if e.get("variableReferences"))
json.dump([{"op": "replace", "path": base + "/%d/variableReferences/0/at" % i, "value": 0x7FFFFFFC}],
          open(out + "/bad.json", "w"))
tpag = next(c for c in chunks if c["id"] == "TPAG")
item = tpag["items"][0] if tpag.get("items") else None
json.dump([{"op": "add", "path": "/chunks/[id=TPAG]/items/-", "value": item}] if item else [],
          open(out + "/tpag.json", "w"))
PY
    # 1. rename through the string reference
    "$rebyte" apply -q "$tmp/rename.json" "$win" -o "$tmp/renamed.win" || { fail "$name: rename"; continue; }
    "$rebyte" verify -q "$tmp/renamed.win" >/dev/null || fail "$name: the renamed file does not verify"
    "$rebyte" dump --blobs=base64 "$tmp/renamed.win" -o "$tmp/renamed.json" || fail "$name: dump of the renamed file"
    python3 - "$tmp/in.json" "$tmp/renamed.json" "$tmp/renamed.win" <<'PY' || fail "$name: the rename changed more than the name"
import json, struct, sys
new = "rebyte renamed code entry"
before, after = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
code = next(c for c in before["chunks"] if c["id"] == "CODE")
code["entries"][0]["name"] = new
next(c for c in before["chunks"] if c["id"] == "STRG")["strings"].append(new)
assert before == after, "the re-read model is not the input's with the new name"
# the header's strref (after the blobs) names the new text
b = open(sys.argv[3], "rb").read()
pos = 8
while b[pos:pos + 4] != b"CODE":
    pos += 8 + struct.unpack_from("<I", b, pos + 4)[0]
header = struct.unpack_from("<I", b, pos + 12)[0]
at = struct.unpack_from("<I", b, header)[0]
size = struct.unpack_from("<I", b, at - 4)[0]
assert b[at:at + size] == new.encode(), b[at:at + size]
PY
    # 2. the same bytecode given as base64 changes nothing
    "$rebyte" apply -q "$tmp/same.json" "$win" -o "$tmp/same.win" || fail "$name: base64 bytecode"
    cmp -s "$win" "$tmp/same.win" || fail "$name: bytecode given back as base64 is not byte-exact"
    # 3. CODE grows before its blobs: VARI/FUNC links follow
    "$rebyte" apply -q "$tmp/grow.json" "$win" -o "$tmp/grown.win" || { fail "$name: add a code entry"; continue; }
    "$rebyte" verify -q "$tmp/grown.win" >/dev/null || fail "$name: the grown file does not verify"
    "$rebyte" dump --blobs=base64 "$tmp/grown.win" -o "$tmp/grown.json" || fail "$name: dump of the grown file"
    python3 - "$win" "$tmp/grown.win" "$tmp/grown.json" "$tmp/in.json" <<'PY' ||
import json, struct, sys
from datawin_bytes import u32, chunks
old, new = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
doc = json.load(open(sys.argv[3]))
# the model is the input's plus the string and the entry: VARI/FUNC links did not change
before = json.load(open(sys.argv[4]))
new_text = "rebyte renamed code entry"
next(c for c in before["chunks"] if c["id"] == "STRG")["strings"].append(new_text)
next(c for c in before["chunks"] if c["id"] == "CODE")["entries"].append(
    {"name": new_text, "locals": 0, "arguments": 0, "bytecode": {"$base64": ""}})
assert before == doc, "the re-read model is not the input's plus the new entry"
co, cn = chunks(old), chunks(new)
def firsts(b, c, bytecode15=True):
    v, vl = c["VARI"]
    f, fl = c["FUNC"]
    vari = [struct.unpack_from("<i", b, v + 12 + 20 * k + 16)[0] for k in range((vl - 12) // 20)]
    func = [struct.unpack_from("<i", b, f + 4 + 12 * k + 8)[0] for k in range(u32(b, f))]
    return vari + func
fo, fn = firsts(old, co), firsts(new, cn)
assert len(fo) == len(fn) and fo, (len(fo), len(fn))
moved = 0
for a, z in zip(fo, fn):
    if a == -1:
        assert z == -1
        continue
    assert z == a + 4 and new[z:z + 8] == old[a:a + 8], (a, z)
    moved += 1
# every variable's occurrence chain still ends on its name's STRG index
# (docs/formats/datawin.md "Occurrence chains")
strings = next(c for c in doc["chunks"] if c["id"] == "STRG")["strings"]
index = {}
for i, s in enumerate(strings):
    if isinstance(s, str):
        index.setdefault(s, i)
v, vl = cn["VARI"]
chains = 0
for k in range((vl - 12) // 20):
    name, _, _, count, first = struct.unpack_from("<Iiiii", new, v + 12 + 20 * k)
    if first == -1:
        continue
    p = first
    for _ in range(count - 1):
        p += u32(new, p + 4) & 0x07FFFFFF
    text = new[name:name + u32(new, name - 4)].decode("utf-8", "replace")
    assert u32(new, p + 4) & 0xFFFFFF == index[text], (text, hex(first))
    chains += 1
assert moved and chains
PY
        fail "$name: VARI/FUNC first occurrences after CODE grew"
    # 4. a reference outside every bytecode is refused
    expect_refused "$name: a reference outside the bytecode" "$tmp/bad.json" "$win" "is not a variable or function operand"
    # 5. CODE moved by an edit before it
    if ! "$rebyte" apply -q "$tmp/tpag.json" "$win" -o "$tmp/tpag.win" 2>"$tmp/err"; then
        echo "note: $name: a TPAG item cannot be added yet: $(cat "$tmp/err")"
        continue
    fi
    "$rebyte" verify -q "$tmp/tpag.win" >/dev/null || fail "$name: the file with a new TPAG item does not verify"
    python3 - "$win" "$tmp/tpag.win" <<'PY' || fail "$name: VARI/FUNC first occurrences after CODE moved"
import struct, sys
from datawin_bytes import u32, chunks
def firsts(b, c):
    v, vl = c["VARI"]
    f, fl = c["FUNC"]
    return [struct.unpack_from("<i", b, v + 12 + 20 * k + 16)[0] for k in range((vl - 12) // 20)] + \
           [struct.unpack_from("<i", b, f + 4 + 12 * k + 8)[0] for k in range(u32(b, f))]
old, new = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
co, cn = chunks(old), chunks(new)
shift = cn["CODE"][0] - co["CODE"][0]
assert shift > 0, shift
moved = 0
for a, z in zip(firsts(old, co), firsts(new, cn)):
    if a == -1:
        assert z == -1
        continue
    assert z == a + shift and new[z:z + 8] == old[a:a + 8], (a, z)
    moved += 1
assert moved
PY
done
[ "$fails" -eq 0 ] && echo "datawin CODE/VARI/FUNC: ok"
[ "$fails" -eq 0 ]
