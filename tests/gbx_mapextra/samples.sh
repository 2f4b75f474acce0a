#!/bin/sh
# Map header chunks and skippable map chunks on the project's own sample (built from JSON):
# the sample is what `rebyte build` makes of its JSON, every chunk of it is typed, and edits that
# change derived values (thumbnail size, header chunk sizes, SmallLen counts, id tables) give
# files whose stored sizes match what an independent reader (check_sizes.py) finds.
. "$(dirname "$0")/../lib.sh"
dir=$src/samples/gbx_mapextra
here=$src/tests/gbx_mapextra
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 77; }

"$rebyte" build "$dir/extras.Map.json" -o "$tmp/built.Gbx" || fail "build extras.Map.json"
cmp -s "$tmp/built.Gbx" "$dir/extras.Map.Gbx" || fail "extras.Map.Gbx is not what \`rebyte build\` makes of its JSON"
"$rebyte" verify -q "$dir/extras.Map.Gbx" >/dev/null || fail "verify extras.Map.Gbx"
"$rebyte" dump "$dir/extras.Map.Gbx" --blobs=base64 -o "$tmp/extras.json" || fail "dump"
python3 "$here/check_sizes.py" typed "$tmp/extras.json" || fail "not every chunk of the sample is typed"
python3 "$here/check_sizes.py" sizes "$dir/extras.Map.Gbx" || fail "sizes of the sample"

# thumbnail + author: the thumbnail grows, so its size field and the header chunk size change
"$rebyte" apply -q "$dir/thumbnail-and-author.patch.json" "$dir/extras.Map.Gbx" -o "$tmp/thumb.Gbx" || fail "apply thumbnail patch"
python3 "$here/check_sizes.py" sizes "$tmp/thumb.Gbx" "$dir/thumbnail-and-author.patch.json" || fail "sizes after the thumbnail patch"
"$rebyte" dump "$tmp/thumb.Gbx" -o "$tmp/thumb.json"
grep -q '"authorNickname": "rebyte (edited)"' "$tmp/thumb.json" || fail "author nickname not edited"

# item colour, a new script trait (SmallLen count and string), a new title id
"$rebyte" apply -q "$dir/colour-trait-title.patch.json" "$dir/extras.Map.Gbx" -o "$tmp/trait.Gbx" || fail "apply trait patch"
"$rebyte" dump "$tmp/trait.Gbx" -o "$tmp/trait.json"
python3 "$here/check_sizes.py" trait "$tmp/trait.json" || fail "trait/colour/title edits not read back"

# the JSON direction validates versions: a version-13 TmDesc without nbLaps is refused
python3 - "$dir/extras.Map.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["headerChunks"][0]["nbLaps"]
json.dump(d, open(sys.argv[2], "w"))
PY
if "$rebyte" build "$tmp/bad.json" -o "$tmp/bad.Gbx" 2>"$tmp/bad.err"; then
    fail "a TmDesc version 13 without nbLaps was accepted"
else
    grep -q nbLaps "$tmp/bad.err" || fail "the error does not name the missing field: $(cat "$tmp/bad.err")"
fi
# chunk 061 (docs/formats/gbx_mapextra.md "Skippable body chunks"): version, two u32, the
# payload, then zeroFill zero bytes and the last u32, packed here independently of the writer;
# the text encoding carries the fill as its length; a fill no map chunk holds is refused
python3 - "$dir/extras.Map.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["bodyCompression"] = "U"
d["body"]["chunks"].append({"id": "0x03043061", "version": 1, "u01": 2, "u02": 9,
                            "payload": {"$hex": "bfff0110"}, "zeroFill": 11, "u03": 45153})
json.dump(d, open(sys.argv[2] + "/c061.json", "w"))
d["body"]["chunks"][-1]["zeroFill"] = 1 << 30
json.dump(d, open(sys.argv[2] + "/c061-huge.json", "w"))
PY
"$rebyte" build "$tmp/c061.json" -o "$tmp/c061.Gbx" || fail "build a map with chunk 061"
python3 - "$tmp/c061.Gbx" <<'PY' || fail "chunk 061 bytes"
import struct, sys
data = open(sys.argv[1], "rb").read()
body = struct.pack("<III", 1, 2, 9) + bytes.fromhex("bfff0110") + bytes(11) + struct.pack("<I", 45153)
sys.exit(0 if struct.pack("<III", 0x03043061, 0x534B4950, len(body)) + body in data else 1)
PY
"$rebyte" dump "$tmp/c061.Gbx" -o "$tmp/c061.dump.json" || fail "dump the map with chunk 061"
grep -q '"zeroFill": 11' "$tmp/c061.dump.json" || fail "chunk 061 does not read back its zero fill"
"$rebyte" convert --to text "$tmp/c061.Gbx" -o "$tmp/c061.text.Gbx" || fail "chunk 061 to text"
"$rebyte" convert --to binary "$tmp/c061.text.Gbx" -o "$tmp/c061.back.Gbx" || fail "chunk 061 from text"
cmp -s "$tmp/c061.Gbx" "$tmp/c061.back.Gbx" || fail "chunk 061: binary -> text -> binary differs"
if "$rebyte" build "$tmp/c061-huge.json" -o "$tmp/huge.Gbx" 2>"$tmp/huge.err"; then fail "a zero fill of 1 GiB was accepted"
else grep -q "zeroFill" "$tmp/huge.err" || fail "the error does not name zeroFill: $(cat "$tmp/huge.err")"; fi

# TMUnlimiter's chunk 0x3F001003, version 7 (docs/formats/gbx_mapextra.md "TMUnlimiter chunks"):
# moved decoration, a named script module, a material reference, two replacement textures and a
# game block with every placement property; packed here independently of the writer up to the
# block's ids, and from its coordinate on. Script byte code is refused (the chunk stays bytes).
python3 - "$dir/extras.Map.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
d["bodyCompression"] = "U"
chunk = {"id": "0x3F001003", "version": 7, "flags": "0x0004", "decorationOffset": [1.0, 2.0, 3.0],
         "angelScriptModules": [{"flags": "0x01", "moduleName": "Main"}], "parameterSets": [],
         "triggerGroups": [], "blockGroups": [], "embeddedBlocks": [],
         "materialModelRefs": [{"instanceIndex": 5, "materialModelRelativePath": "Mat.Gbx"}],
         "replacementTextureFlags": "0x05", "specularInstanceIndex": 7, "whiteInstanceIndex": 8,
         "embeddedImages": [], "vehicleIdentifiers": [],
         "blocks": [{"blockType": 0, "name": "UnlimiterRoad", "collection": "Speed", "coord": [25, 7, 21],
                     "direction": 2, "flags": "0x00000001", "flags2": "0x0237", "offset": [0.5, 0.0, 0.0],
                     "rotation": [0.0, 1.5, 0.0], "scale": [2.0, 2.0, 2.0], "originOffset": [0.0, 0.0, 1.0],
                     "blockGroups": [0, 3], "spawnOffset": [0.0, 1.0, 0.0], "spawnRotation": [0.0, 0.0, 0.5]}]}
d["body"]["chunks"].append(chunk)
json.dump(d, open(sys.argv[2] + "/unl.json", "w"))
bad = copy.deepcopy(d)
bad["body"]["chunks"][-1]["angelScriptModules"][0]["flags"] = "0x00"
json.dump(bad, open(sys.argv[2] + "/unl-code.json", "w"))
PY
"$rebyte" build "$tmp/unl.json" -o "$tmp/unl.Gbx" || fail "build a map with a TMUnlimiter chunk"
"$rebyte" verify -q "$tmp/unl.Gbx" >/dev/null || fail "verify the map with a TMUnlimiter chunk"
python3 - "$tmp/unl.Gbx" <<'PY' || fail "TMUnlimiter chunk bytes"
import struct, sys
data = open(sys.argv[1], "rb").read()
s = lambda t: struct.pack("<i", len(t)) + t.encode()
at = data.find(struct.pack("<I", 0x3F001003) + b"PIKS")
if at < 0: sys.exit("no chunk 0x3F001003")
body = data[at + 12:]
start = (struct.pack("<BH3f", 7, 4, 1, 2, 3) + struct.pack("<IB", 1, 1) + s("Main") + struct.pack("<IIIi", 0, 0, 0, 0)
         + struct.pack("<Ii", 1, 5) + s("Mat.Gbx") + struct.pack("<Bii", 5, 7, 8) + struct.pack("<III", 0, 0, 1)
         + struct.pack("<B", 0))
if not body.startswith(start): sys.exit("chunk head differs")
tail = (struct.pack("<3iBIH", 25, 7, 21, 2, 1, 0x0237) + struct.pack("<12f", .5, 0, 0, 0, 1.5, 0, 2, 2, 2, 0, 0, 1)
        + struct.pack("<I2i", 2, 0, 3) + struct.pack("<6f", 0, 1, 0, 0, 0, .5))
size = struct.unpack_from("<I", data, at + 8)[0]
if not body[:size].endswith(tail): sys.exit("block tail differs")
PY
"$rebyte" dump "$tmp/unl.Gbx" -o "$tmp/unl.dump.json" || fail "dump the TMUnlimiter map"
grep -q '"spawnRotation"' "$tmp/unl.dump.json" || fail "the TMUnlimiter chunk did not read back typed"
if "$rebyte" build "$tmp/unl-code.json" -o "$tmp/unl-code.Gbx" 2>"$tmp/unl.err"; then fail "script byte code was accepted"
else grep -q "script byte code" "$tmp/unl.err" || fail "the refusal does not say why: $(cat "$tmp/unl.err")"; fi

[ "$fails" -eq 0 ] && echo "gbx map extras samples: all passed"
[ "$fails" -eq 0 ]
