#!/bin/sh
# The ghost and replay chunks GBX.NET skips and this project lays out from the corpus
# (docs/formats/gbx_ghost.md): ghost 01B (race result, versions 1 and 2) and 02B, replay 01E,
# 01F (version 0: anchored object infos), 020, 022, 023, added to the samples' JSON. The files
# build and verify, their chunks read back to the same model, their bytes are what is packed
# here independently of the writer, and a version nobody has described stays bytes.
. "$(dirname "$0")/../lib.sh"
samples=$src/samples/gbx_ghost
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }

python3 - "$samples" "$tmp" <<'PY'
import json, sys
samples, tmp = sys.argv[1:3]
def add(name, base, chunks):
    d = json.load(open("%s/%s" % (samples, base)))
    d["bodyCompression"] = "U"
    d["body"]["chunks"] += chunks
    json.dump(d, open("%s/%s.json" % (tmp, name), "w"))
add("ghost-v1", "minimal.Ghost.json", [
    {"id": "0x0309201B", "version": 1, "u04": 6378, "u01": 0, "u02": 1, "u03": [0, 15045]},
    {"id": "0x0309202B", "version": 1, "u01": 10782, "u02": 0, "u03": -1, "u04": 1,
     "u05": [{"time": 6008, "u06": 1}, {"time": 10782, "u06": 0}], "u07": -1}])
add("ghost-v2", "minimal.Ghost.json", [
    {"id": "0x0309201B", "version": 2, "u01": 99, "u02": 0, "u03": [54765, 7172, 7126], "u04": 3557, "u05": 0}])
add("replay", "minimal.Replay.json", [
    {"id": "0x0309301E", "version": 2, "u01": 0, "u02": 0, "u03": 0},
    {"id": "0x0309301F", "version": 0,
     "anchoredObjectInfos": [{"u01": True, "u02": 7, "u03": 1.0, "u04": 2.0, "u05": 3.0, "u06": -1}]},
    {"id": "0x03093020", "version": 1, "names": ["DefaultPlayerModel"],
     "skins": [{"version": 2, "filePath": "Skins\\Models\\CarSport\\A.zip", "locatorUrl": ""}]},
    {"id": "0x03093022", "version": 0, "u01": 0},
    {"id": "0x03093023", "version": 0, "u01": -1, "u02": 0}])
# a race result version nobody has described: the chunk's bytes are kept as they are
d = json.load(open("%s/minimal.Ghost.json" % samples))
d["bodyCompression"] = "U"
d["body"]["chunks"].append({"id": "0x0309201B", "data": {"$base64": "AwAAAKq7zN0="}})
json.dump(d, open("%s/ghost-v3.json" % tmp, "w"))
PY

for case in ghost-v1:2 ghost-v2:1 replay:5 ghost-v3:1; do
    name=${case%:*} added=${case#*:}
    "$rebyte" build --new-record "$tmp/$name.json" -o "$tmp/$name.Gbx" || { fail "build $name"; continue; }
    "$rebyte" verify -q "$tmp/$name.Gbx" >/dev/null || fail "verify $name"
    "$rebyte" dump --blobs=base64 "$tmp/$name.Gbx" -o "$tmp/$name.dump.json" || fail "dump $name"
    python3 - "$tmp/$name.json" "$tmp/$name.dump.json" "$added" <<'PY' || fail "$name: the added chunks read back differently"
import json, sys
a, b = (json.load(open(p))["body"]["chunks"] for p in sys.argv[1:3])
k = int(sys.argv[3])
if a[-k:] != b[-k:]: print(a[-k:], b[-k:])
sys.exit(0 if a[-k:] == b[-k:] else 1)
PY
done

python3 - "$tmp" <<'PY' || fail "bytes differ from the layouts"
import struct, sys
tmp = sys.argv[1]
def chunk(cid, body):
    return struct.pack("<III", cid, 0x534B4950, len(body)) + body
def expect(name, what, blob):
    if blob not in open("%s/%s.Gbx" % (tmp, name), "rb").read():
        print("missing in %s: %s" % (name, what)); sys.exit(1)
s = lambda t: struct.pack("<i", len(t)) + t.encode()
# 01B version 1: version, i32, two u16, the u16 count, the i32 list
expect("ghost-v1", "01B v1", chunk(0x0309201B, struct.pack("<IiHHH2i", 1, 6378, 0, 1, 2, 0, 15045)))
expect("ghost-v1", "02B", chunk(0x0309202B, struct.pack("<I4iI4ii", 1, 10782, 0, -1, 1, 2, 6008, 1, 10782, 0, -1)))
# 01B version 2: version, the u16 count, two u16, the i32 list, two i32
expect("ghost-v2", "01B v2", chunk(0x0309201B, struct.pack("<IHHH3iii", 2, 3, 99, 0, 54765, 7172, 7126, 3557, 0)))
expect("ghost-v3", "01B v3 as bytes", chunk(0x0309201B, bytes.fromhex("03000000aabbccdd")))
expect("replay", "01E", chunk(0x0309301E, struct.pack("<4I", 2, 0, 0, 0)))
expect("replay", "01F v0", chunk(0x0309301F, struct.pack("<IIIi3fi", 0, 1, 1, 7, 1, 2, 3, -1)))
path = "Skins\\Models\\CarSport\\A.zip"
expect("replay", "020", chunk(0x03093020, struct.pack("<II", 1, 1) + s("DefaultPlayerModel") + struct.pack("<IB", 1, 2)
                                 + s(path) + s("")))
expect("replay", "022", chunk(0x03093022, struct.pack("<II", 0, 0)))
expect("replay", "023", chunk(0x03093023, struct.pack("<IiI", 0, -1, 0)))
PY

[ "$fails" -eq 0 ] && echo "ghost and replay chunks: ok"
[ "$fails" -eq 0 ]
