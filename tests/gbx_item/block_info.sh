#!/bin/sh
# TM 1.0 / Sunrise collection and block info fixtures (core/gbx/item/block_info.c), authored as JSON:
# they build, verify byte for byte, are fully typed, read back to the same model, and their body is
# exactly what docs/formats/gbx_item.md "Collection and block info chunks" says, packed here with
# Python's struct independently of the writer. Models whose flags disagree with what follows are
# refused. On the corpus, the two Sunrise files this was laid out from parse to their end.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:-.}
here=$src/tests/gbx_item
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

for name in tm10-blockinfo.TMEDClassic tm10-collection.TMCollection; do
    "$rebyte" build "$here/$name.json" -o "$tmp/$name.Gbx" || { fail "build $name"; continue; }
    "$rebyte" verify --json "$tmp/$name.Gbx" >"$tmp/$name.verify" || fail "verify $name"
    grep -q '"opaque_bytes":0,' "$tmp/$name.verify" || fail "$name is not fully typed"
    "$rebyte" dump "$tmp/$name.Gbx" -o "$tmp/$name.back.json" || fail "dump $name"
    python3 - "$here/$name.json" "$tmp/$name.back.json" <<'PY' || fail "$name reads back to other chunks"
import json, sys
a, b = (json.load(open(p))["body"]["chunks"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
done

# one fact, one place: renaming the collection and changing its sort index in the body reaches
# the header chunk's copies (checked from the bytes below)
cat >"$tmp/rename.patch.json" <<'EOF'
[
  { "op": "replace", "path": "/body/chunks/0/collection", "value": "Baie" },
  { "op": "replace", "path": "/body/chunks/3/sortIndex", "value": 7 }
]
EOF
"$rebyte" apply "$tmp/rename.patch.json" "$tmp/tm10-collection.TMCollection.Gbx" -o "$tmp/renamed.Gbx" || fail "apply rename"

python3 - "$tmp" <<'PY' || fail "byte layouts"
import struct, sys
tmp = sys.argv[1]
u = lambda *v: struct.pack("<%dI" % len(v), *v)
i = lambda *v: struct.pack("<%di" % len(v), *v)
f = lambda *v: struct.pack("<%df" % len(v), *v)
FACADE, NONE = u(0xFACADE01), i(-1)
string = lambda s: u(len(s)) + s
def new_id(s, first=False):  # lookback string defined here (the first one carries version 3)
    return (u(3) if first else b"") + u(0x40000000) + u(len(s)) + s
def check(name, body):
    data = open("%s/%s.Gbx" % (tmp, name), "rb").read()
    if not data.endswith(body):
        print("%s: the body is not the packed one" % name); sys.exit(1)

unit = (u(0x24006000) + i(2) + u(1, 0x0707F880) + i(0, 1, 2) + u(4) + i(-1, -1, 1, -1)
        + u(0x24006001) + new_id(b"Sea") + i(5, 1)
        + u(0x24006002) + b"PIKS" + u(4, 0)
        + u(0x24006003) + NONE + u(0xFFFFFFFF) + u(0x02E186A8, 0x42B00000)
        + u(0x24006004) + i(1) + u(0x24006005) + u(0x40000002) + FACADE)
solid = (u(0x09005000) + i(42) + u(0x09005007, 0)
         + u(0x0900500C) + u(0, 0, 1, 0, 0, 0, 1, 1, 1, 0) + f(50) + i(10000) + f(0.5, 5, 5, 0.25) + i(30, 300)
         + u(0x0900500D, 1, 1) + NONE
         + u(0x0900500E) + f(1, 0, 0, 0) + f(0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5, 0.125, 0.25, 0.375)
         + u(0x0900500F) + f(0, 2) + u(0x09005010) + NONE + FACADE)
mobil = (u(0x0A005001, 0xFFFFFFFF, 0x0A005003) + NONE + u(0x0A005004, 0, 0x0A011003, 0, 0x0A011004) + NONE
         + u(0x0A011005) + u(0x06003001) + i(3) + u(0x09005000) + solid
         + u(0x06003010) + struct.pack("<QH", 18442733064309735680, 1) + FACADE
         + u(0x0A011006) + NONE + FACADE)
spawn = lambda y: f(1, 0, 0, 0, 1, 0, 0, 0, 1, 16, y, 16)
helpers = NONE * 3
body = (u(0x24005005) + new_id(b"Susp", True) + i(0, 0, 0) + u(0) + i(0, 0) + NONE
        + u(1) + i(1) + u(0x24006000) + unit + u(0)                       # ground units, no air unit
        + u(2) + u(1) + i(2) + u(0x0A011000) + mobil                      # two lists of ground mobils:
        + u(1) + i(4) + u(0x0A011000) + u(0x0A011005, 0) + FACADE         # the second one's item is a u32 0
        + u(0) + b"\0" + i(0) + struct.pack("<HH", 0, 0)
        + u(0x24005009, 1) + u(0x2400500B) + i(3) + helpers
        + u(0x2400500C) + spawn(1.5) + spawn(9.5) + u(0x2400500D, 0)
        + u(0x2400500E) + i(3) + helpers + u(0x2400500F, 1) + FACADE)
check("tm10-blockinfo.TMEDClassic", body)

body = (u(0x24004009) + new_id(b"Bay", True) + u(10, 1) + i(1) + i(1) + u(0) + f(32, 8)
        + new_id(b"BayCar") + new_id(b"Vehicles") + new_id(b"Nadeo")
        + u(0x2400400C, 1) + i(0)
        + u(0x2400400D, 1) + i(2) + u(0)
        + u(0x2400400E) + i(6) + u(0x24004011) + i(3)
        + u(0x24004013) + f(-5, -13, -1000)
        + u(0x24004016) + i(2) + u(0) + i(0) + f(1) + i(1) + f(0, 1)
        + u(0x24004018) + NONE + f(-1, -1, 1, 1) + f(0.25, 0.5) + f(0, 0)
        + u(0x24004019) + i(4) + FACADE)
check("tm10-collection.TMCollection", body)

# header chunk 001 v7: the collection id, needUnlock, sortIndex and vehicle are the body's (009, 00E)
def header(collection, sort):
    return (bytes([7]) + new_id(collection, True) + u(0) + string(b"Bay\\Icon.Texture.gbx") + string(b"") + i(sort)
            + new_id(b"BaySea") + new_id(b"BayCar") + new_id(b"Vehicles") + new_id(b"Nadeo")
            + string(b"") + f(-1, -1, 1, 1) + f(0.25, 0.5) + f(0, 0) + string(b"Bay\\LoadScreen.Texture.gbx"))
for name, collection, sort in (("tm10-collection.TMCollection", b"Bay", 6), ("renamed", b"Baie", 7)):
    h = header(collection, sort)
    data = open("%s/%s.Gbx" % (tmp, name), "rb").read()
    # user data: u32 size, u32 count 1, (u32 id, u32 size), the chunk
    if data[13:13 + 16] != u(8 + 4 + len(h)) + u(1, 0x24004001, len(h)) or data[29:29 + len(h)] != h:
        print("%s: header chunk 0x24004001 is not the packed one" % name); sys.exit(1)
PY

# a flag that disagrees with its node, and a mobil "no item" value other than 0, are refused
sed 's/"hasIconFid": true/"hasIconFid": false/' "$here/tm10-collection.TMCollection.json" >"$tmp/bad-icon.json"
if "$rebyte" build "$tmp/bad-icon.json" -o "$tmp/bad-icon.Gbx" 2>"$tmp/err"; then fail "icon flag off with an icon built"
else grep -q "hasIconFid is not set but iconFid is present" "$tmp/err" || fail "icon flag message: $(cat "$tmp/err")"; fi
sed 's/"chunks": \[ { "id": "0x0A011005", "u01": 0 } \]/"chunks": [ { "id": "0x0A011005", "u01": 7 } ]/' \
    "$here/tm10-blockinfo.TMEDClassic.json" >"$tmp/bad-mobil.json"
cmp -s "$tmp/bad-mobil.json" "$here/tm10-blockinfo.TMEDClassic.json" && fail "the mobil edit did not apply"
if "$rebyte" build "$tmp/bad-mobil.json" -o "$tmp/bad-mobil.Gbx" 2>"$tmp/err"; then fail "mobil item 7 built"
else grep -q "a mobil without item stores 0 here" "$tmp/err" || fail "mobil message: $(cat "$tmp/err")"; fi

# the two corpus files parse to their end (no opaque tail, no opaque body byte)
corpus=${REBYTE_SHARED:-../shared}/corpus/gbx
for f in "$corpus"/e2117c05_BayDecompressed.TMCollection.Gbx "$corpus"/4f695213_BayBridgeSusp.TMEDClassic.Gbx; do
    [ -f "$f" ] || continue
    "$rebyte" verify --json "$f" >"$tmp/c.verify" || fail "verify $f"
    grep -q '"opaque_tail":false' "$tmp/c.verify" || fail "$(basename "$f") keeps an opaque tail"
done

[ "$fails" -eq 0 ] && echo "block info fixtures: all checks passed"
[ "$fails" -eq 0 ]
