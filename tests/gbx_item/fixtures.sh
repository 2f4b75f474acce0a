#!/bin/sh
# Item-family fixtures authored as JSON (samples/gbx_item, tests/gbx_item): they must build, verify
# byte for byte, read back to the same model, lay out their bytes as docs/formats/gbx_item.md says,
# reject fields their version does not have, follow the item type for chunk 0x2E002019, and take
# the sample patches.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:-.}
here=$src/tests/gbx_item
samples=$src/samples/gbx_item
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

same_chunks() { # JSON model, built file: the file reads back to the JSON's body chunks
    "$rebyte" dump "$2" --blobs=base64 -o "$tmp/readback.json" || return 1
    python3 - "$1" "$tmp/readback.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["body"]["chunks"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
}

# 1. every fixture and sample: build, verify (also re-encoded), fully typed, reads back the same
for json in "$samples/ramp.Macroblock.json" "$samples/marker.Item.json" "$samples/default.SystemConfig.json" \
    "$here/tm10-blocks.Challenge.json"; do
    name=$(basename "$json" .json)
    "$rebyte" build "$json" -o "$tmp/$name.Gbx" || { fail "build $name"; continue; }
    "$rebyte" verify --json "$tmp/$name.Gbx" >"$tmp/$name.verify" || fail "verify $name"
    "$rebyte" verify --reencode "$tmp/$name.Gbx" >/dev/null || fail "verify --reencode $name"
    grep -q '"opaque_bytes":0,' "$tmp/$name.verify" || fail "$name is not fully typed"
    same_chunks "$json" "$tmp/$name.Gbx" || fail "$name reads back to other chunks"
done
for name in ramp.Macroblock marker.Item default.SystemConfig; do
    cmp -s "$tmp/$name.Gbx" "$samples/$name.Gbx" || fail "built $name differs from samples/gbx_item/$name.Gbx"
done

# 2. bytes as the layouts say, packed here independently of the writer (uncompressed copies)
for name in ramp.Macroblock marker.Item default.SystemConfig; do
    sed 's/"bodyCompression": "C"/"bodyCompression": "U"/' "$samples/$name.json" >"$tmp/$name-u.json"
    "$rebyte" build "$tmp/$name-u.json" -o "$tmp/$name-u.Gbx" || fail "build uncompressed $name"
done
python3 - "$tmp" "$tmp/tm10-blocks.Challenge.Gbx" <<'PY' || fail "byte layouts"
import struct, sys
tmp = sys.argv[1]
FACADE, PIKS = struct.pack("<I", 0xFACADE01), struct.pack("<I", 0x534B4950)
def expect(path, what, blob):
    if blob not in open(path, "rb").read():
        print("missing:", what); sys.exit(1)
def string(s):
    return struct.pack("<i", len(s)) + s
# TM 1.0 block node 0x24007002 (docs/formats/gbx_item.md "TM 1.0 block nodes"): ident, u8 dir, byte3, u32 flags
expect(sys.argv[2], "TM1.0 block", b"Nadeo" + bytes([2, 4, 1, 7]) + struct.pack("<I", 0x01000000) + FACADE)
# a back-reference to block node 1 in 0x0304300F: just its index
expect(sys.argv[2], "block back-reference", FACADE + struct.pack("<i", 1) + struct.pack("<I", 0))
mb = tmp + "/ramp.Macroblock-u.Gbx"
# BlockSpawn v8, flag 26 (free): flags, position, rotation, waypoint node, u16
# (docs/formats/gbx_item.md "Block and object spawns")
expect(mb, "free block spawn", struct.pack("<I", 0x04000000) + struct.pack("<6f", 96, 12.5, 160, 1.5707964, 0, 0)
       + struct.pack("<iII", 1, 0x2E009000, 0x2E009000) + struct.pack("<I", 2) + string(b"Checkpoint")
       + struct.pack("<I", 0) + FACADE + struct.pack("<H", 0))
# BlockSpawn v8 on the grid: flags, byte3 coord, u8 direction, waypoint -1, u16
expect(mb, "grid block spawn", struct.pack("<I", 0) + bytes([2, 1, 3, 2]) + struct.pack("<iH", -1, 0))
# ObjectSpawn v14 tail: scale, int3, 3 x u8, 2 boolbytes, packdesc v2, i32
expect(mb, "object spawn", struct.pack("<if", -1, 1.5) + struct.pack("<3i", -1, -1, -1) + bytes([0, 0, 0, 1, 0])
       + bytes([2]) + string(b"Skins\\Any\\Flag.zip") + string(b"") + struct.pack("<i", -1))
# 011: version, encapsulation (0, size), int3, int3, two empty encapsulated nodes
expect(mb, "clips", struct.pack("<III", 0x0310D011, 0x534B4950, 44) + struct.pack("<III", 0, 0, 32)
       + struct.pack("<6i", 23, 9, 24, 3, 2, 4) + struct.pack("<2I", 0xFFFFFFFF, 0xFFFFFFFF))
item = tmp + "/marker.Item-u.Gbx"
# 019 v15 for an ornament: no custom models; weapon id (empty), phy, vis, actions, cam, edition, entity, vfx, modifier
expect(item, "item model 019", struct.pack("<II", 0x2E002019, 15) + struct.pack("<Iii", 0xFFFFFFFF, -1, -1)
       + struct.pack("<Ii", 0, 0) + struct.pack("<4i", -1, -1, -1, -1) + struct.pack("<I", 0x2E00201A))
# 01F v12: waypoint type, bool, node, u8, 2 x i32
expect(item, "item 01F", struct.pack("<IIIIi", 0x2E00201F, 12, 3, 0, -1) + bytes([0]) + struct.pack("<ii", -1, -1))
# 021: one element: iso4, a referenced file (so no node)
expect(item, "item group", struct.pack("<III", 0x2E002021, 0, 1) + struct.pack("<12f", 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 4, 0)
       + string(b"Items\\Pole.Item.Gbx") + struct.pack("<I", 0x2E002023))
cfg = tmp + "/default.SystemConfig-u.Gbx"
# 020: bool, then the display node's chunks directly (no index, no class id)
expect(cfg, "display node", struct.pack("<I", 0x0B005020) + PIKS + struct.pack("<I", 4 + 16 + 16 + 24 + 20 + 16 + (12 + 79) + 4)
       + struct.pack("<I", 0) + struct.pack("<I", 0x0B013004) + PIKS + struct.pack("<II", 4, 0))
# display 036 v3: version, int2, 3 int, refresh, sync, mode, int, v1 int, v2 4 ints, v3 string
expect(cfg, "display 036", struct.pack("<I", 0x0B013036) + PIKS + struct.pack("<I", 79) + struct.pack("<I2i", 3, 2560, 1440)
       + struct.pack("<3i", 0, 0, 0) + struct.pack("<4i", 144, 1, 2, 0) + struct.pack("<i", 1)
       + struct.pack("<4i", 2560, 0, 1440, 0) + string(b"Default adapter") + FACADE)
PY

# 3. 0x2E002019 reads the custom models by the header's item type (GBX.NET GetItemTypeVersion)
python3 - "$samples/marker.Item.json" "$tmp" <<'PY'
import copy, json, sys
item = json.load(open(sys.argv[1]))
def write(name, item_type, fields):
    c = copy.deepcopy(item)
    for h in c["headerChunks"]:
        if h["id"] == "0x2E002000":
            h["itemType"] = item_type
    for i, ch in enumerate(c["body"]["chunks"]):
        if ch["id"] == "0x2E002019":
            c["body"]["chunks"][i] = dict({"id": "0x2E002019"}, **fields)
    json.dump(c, open("%s/%s.json" % (sys.argv[2], name), "w"))
v7 = {"version": 7, "phyModelCustom": {"index": -1}, "visModelCustom": {"index": -1}, "defaultWeaponName": None,
      "phyModel": {"index": -1}, "visModel": {"index": -1}, "actions": [], "defaultCam": 0}
write("custom-ornament", 1, v7)   # ornament: custom models below version 9
write("custom-block", 11, v7)     # block: never, so the same bytes do not read back as written
bad = dict(v7); del bad["phyModelCustom"]; del bad["visModelCustom"]; bad["version"] = 4
write("bad-version", 1, bad)      # version 4 has no visModel
PY
"$rebyte" build "$tmp/custom-ornament.json" -o "$tmp/custom-ornament.Gbx" || fail "build custom-ornament"
"$rebyte" verify "$tmp/custom-ornament.Gbx" >/dev/null || fail "verify custom-ornament"
same_chunks "$tmp/custom-ornament.json" "$tmp/custom-ornament.Gbx" || fail "ornament custom models do not read back"
"$rebyte" build "$tmp/custom-block.json" -o "$tmp/custom-block.Gbx" || fail "build custom-block"
"$rebyte" dump "$tmp/custom-block.Gbx" -o "$tmp/custom-block.dump.json" || fail "dump custom-block"
grep -q '"phyModelCustom"' "$tmp/custom-block.dump.json" && fail "a block item was read with custom models"
"$rebyte" build "$tmp/bad-version.json" -o "$tmp/bad.Gbx" 2>"$tmp/bad.err" && fail "version 4 took a version 5 field"
grep -q "visModel" "$tmp/bad.err" || fail "the version error does not name the field: $(cat "$tmp/bad.err")"

# 4. a version's fields and nothing else, in the macroblock and the system config
python3 - "$samples/ramp.Macroblock.json" "$samples/default.SystemConfig.json" "$tmp" <<'PY'
import copy, json, sys
mb, cfg, tmp = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def variant(doc, name, edit):
    c = copy.deepcopy(doc)
    edit(c["body"]["chunks"])
    json.dump(c, open("%s/%s.json" % (tmp, name), "w"))
def grid_coord_on_free_block(ch):   # flag 26 set: position and rotation, not coord
    s = ch[8]["blockSpawns"][1]
    del s["absolutePositionInMap"]; del s["pitchYawRoll"]; s["coord"] = [1, 1, 1]; s["direction"] = 0
def old_object_spawn(ch):           # version 13 has no u10
    ch[15]["objectSpawns"][0]["version"] = 13
def old_screen(ch):                 # display 036 version 2 has no adapter
    ch[3]["display"]["chunks"][5]["version"] = 2
variant(mb, "bad-free-block", grid_coord_on_free_block)
variant(mb, "bad-object-spawn", old_object_spawn)
variant(cfg, "bad-screen", old_screen)
PY
for bad in bad-free-block bad-object-spawn; do
    "$rebyte" build "$tmp/$bad.json" -o "$tmp/$bad.Gbx" 2>/dev/null && fail "$bad was accepted"
done
# a skippable chunk that no longer matches its layout is refused in JSON, not silently kept
"$rebyte" build "$tmp/bad-screen.json" -o "$tmp/bad-screen.Gbx" 2>/dev/null && fail "bad-screen was accepted"

# 5. the sample patches
"$rebyte" apply "$samples/ramp-move-flag.patch.json" "$tmp/ramp.Macroblock.Gbx" -o "$tmp/ramp2.Gbx" || fail "apply ramp patch"
"$rebyte" dump "$tmp/ramp2.Gbx" -o "$tmp/ramp2.json" || fail "dump patched ramp"
python3 - "$tmp/ramp2.json" "$tmp/ramp2.Gbx" <<'PY' || fail "ramp patch not applied"
import json, struct, sys
d = json.load(open(sys.argv[1]))
spawn = d["body"]["chunks"][15]["objectSpawns"][0]
ok = spawn["absolutePositionInMap"] == [88.0, 24.0, 104.0] and spawn["scale"] == 2.0
ok = ok and d["body"]["chunks"][2]["name"] == "Ramp with a big flag"
# one fact, one place: the header chunk 0x2E001003 repeats the name, derived from the body
# (read from the file's user data, not from the model)
data = open(sys.argv[2], "rb").read()
user = struct.unpack_from("<I", data, 13)[0]
ok = ok and b"Ramp with a big flag" in data[17:17 + user] and "name" not in d["headerChunks"][0]
sys.exit(0 if ok else 1)
PY
"$rebyte" apply "$samples/config-144hz.patch.json" "$tmp/default.SystemConfig.Gbx" -o "$tmp/cfg2.Gbx" || fail "apply config patch"
"$rebyte" dump "$tmp/cfg2.Gbx" -o "$tmp/cfg2.json" || fail "dump patched config"
python3 - "$tmp/cfg2.json" <<'PY' || fail "config patch not applied"
import json, sys
display = json.load(open(sys.argv[1]))["body"]["chunks"][3]["display"]["chunks"]
sys.exit(0 if display[4]["maxFps"] == 240 and display[5]["screenSizeFS"] == [1920, 1080] else 1)
PY

[ "$fails" -eq 0 ] && echo "item fixtures: all checks passed"
[ "$fails" -eq 0 ]
