#!/bin/sh
# Old solid fixture (tests/gbx_item/small.Solid.json: a CPlugSolid whose tree holds a mip node, a
# light and a tree with an old visual and surface geometry): it builds, verifies byte for byte,
# reads back to the same model, lays out its bytes as docs/formats/gbx_solid.md says, and the
# descriptions refuse what they do not know instead of misreading it.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:-.}
json=$src/tests/gbx_item/small.Solid.json
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# 1. build, verify (also re-encoded), fully typed, reads back the same
"$rebyte" build "$json" -o "$tmp/small.Gbx" || { echo "FAIL build"; exit 1; }
"$rebyte" verify --json "$tmp/small.Gbx" >"$tmp/verify.json" || fail "verify"
"$rebyte" verify --reencode "$tmp/small.Gbx" >/dev/null || fail "verify --reencode"
grep -q '"opaque_bytes":0,' "$tmp/verify.json" || fail "not fully typed"
grep -q '"opaque_tail":false' "$tmp/verify.json" || fail "typed parse stops"
"$rebyte" dump "$tmp/small.Gbx" -o "$tmp/readback.json" || fail "dump"
python3 - "$json" "$tmp/readback.json" <<'PY' || fail "reads back to other chunks"
import json, sys
a, b = (json.load(open(p))["body"]["chunks"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY

# 2. bytes as the layouts say, packed here independently of the writer (the body is uncompressed)
python3 - "$tmp/small.Gbx" <<'PY' || fail "byte layouts"
import struct, sys
data = open(sys.argv[1], "rb").read()
FACADE = struct.pack("<I", 0xFACADE01)
ISO = struct.pack("<12f", 1, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, -4)
def expect(what, blob):
    if blob not in data:
        print("missing:", what); sys.exit(1)
# solid 00D: two bools, the root tree defined in place (index 1, class), its 006: list version 10, 2 children
expect("solid tree", struct.pack("<IIIiIIII", 0x0900500D, 1, 0, 1, 0x0904F000, 0x0904F006, 10, 2))
# tree 019 with bit 2 set: flags, then a location
expect("tree location", struct.pack("<II", 0x0904F019, 0x0001E006) + ISO)
# tree 00C (0), 00D (lookback version 3, two empty ids)
expect("tree 00C/00D", struct.pack("<IiIIiI", 0x0904F00C, 0, 0x0904F00D, 3, -1, 0xFFFFFFFF))
# mip 002: two levels, the second a back-reference to node 3
expect("mip levels tail", FACADE + struct.pack("<fi", 512.0, 3) + FACADE)
# light 004: a null light
expect("light", struct.pack("<Ii", 0x09062004, -1) + FACADE)
# visual 00A: 2 bools, 1 set, skin 0, count 3, no streams, set version 0 with 3 UVs, bool, no locations
expect("visual 00A", struct.pack("<IIIIIII", 0x0900600A, 1, 1, 1, 0, 3, 0) + struct.pack("<I6f", 0, 0, 0, 1, 0, 0, 1)
       + struct.pack("<II", 1, 0))
# visual 3D 003: 3 vertices of 10 f32, no tangents
expect("visual 3D 003", struct.pack("<I10f", 0x0902C003, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1)
       + struct.pack("<10f", 32, 0, 0, 0, 1, 0, .5, .5, .5, 1) + struct.pack("<10f", 0, 0, 32, 0, 1, 0, .25, .25, .25, 1)
       + struct.pack("<II", 0, 0) + struct.pack("<I", 0x0906A001))
# surface geometry 0x0900D000: 0x0900C000 (empty id), 0x0900C001 (true), mesh version 3
expect("surface", struct.pack("<iIIIIIII", 5, 0x0900D000, 0x0900C000, 0xFFFFFFFF, 0x0900C001, 1, 0x0900D002, 3)
       + struct.pack("<I9f", 3, 0, 0, 0, 32, 0, 0, 0, 0, 32) + struct.pack("<IiI", 0, 2, 0) + FACADE)
PY

# 3. what has no known layout is refused when building, naming the chunk
refuse() { # python expression editing `d` (the model), text the error must contain
    python3 - "$json" "$tmp/bad.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
root = d["body"]["chunks"][3]["tree"]
mip = root["chunks"][0]["children"][0]
ground = mip["chunks"][6]["levels"][0]["tree"]
props = ground["chunks"][4]
visual = props["visual"]["chunks"]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
    if "$rebyte" build "$tmp/bad.json" -o "$tmp/bad.Gbx" 2>"$tmp/err"; then
        fail "built a model with $2"
    elif ! grep -q "$2" "$tmp/err"; then
        fail "error for '$2' says: $(cat "$tmp/err")"
    fi
}
refuse 'del visual[6]' "without a visual vertex chunk"
refuse 'root["chunks"][1]["u01"] = 1' "only 0 has a known layout"
# in TMF's CPlugSurface the chunk is a geometry node and materials, not the id
refuse 'props["surface"]["classId"] = "0x0900C000"' 'member "geom" is missing'
refuse 'props["surface"]["classId"] = "0x0900E000"' "in a node of class 0x0900E000"
refuse 'visual[6]["skinFlags"] = "0x00000001"' "skin flags"
refuse 'visual[9]["vertices"].pop()' "the visual's count is 3"

# 4. the same refusal on read keeps the rest opaque and still writes the file back exactly
python3 - "$tmp/small.Gbx" "$tmp/odd.Gbx" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(struct.pack("<Ii", 0x0904F00C, 0))
struct.pack_into("<i", data, at + 4, 7)
open(sys.argv[2], "wb").write(data)
PY
"$rebyte" verify --json "$tmp/odd.Gbx" >"$tmp/odd.json" || fail "verify of a tree 00C with u01 = 7"
grep -q '"status":"exact"' "$tmp/odd.json" || fail "a tree 00C with u01 = 7 does not write back exactly"
grep -q '"opaque_tail":true' "$tmp/odd.json" || fail "a tree 00C with u01 = 7 was typed"

echo "old solid fixture: $fails failures"
exit $((fails > 0))
