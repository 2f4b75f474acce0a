#!/bin/sh
# Media-tracker fixtures authored as JSON: they must build, verify byte for byte, read back to the same
# model (including the chunk ids two classes share), lay out their bytes as GBX.NET's chunkl says, reject
# fields that their version does not have, and take the sample patch.
. "$(dirname "$0")/../lib.sh"
here=$src/tests/gbx_mediatracker
samples=$src/samples/gbx_mediatracker

# 1. every fixture and sample: build, verify (also re-encoded), dump back to the same chunks
for json in "$here/layouts.Clip.json" "$samples/intro.Clip.json" "$samples/triggers.ClipGroup.json"; do
    name=$(basename "$json" .json)
    "$rebyte" build "$json" -o "$tmp/$name.Gbx" || { fail "build $name"; continue; }
    "$rebyte" verify --json "$tmp/$name.Gbx" >"$tmp/$name.verify" || fail "verify $name"
    "$rebyte" verify --reencode "$tmp/$name.Gbx" >/dev/null || fail "verify --reencode $name"
    grep -q '"opaque_bytes":0,' "$tmp/$name.verify" || fail "$name is not fully typed"
    "$rebyte" dump "$tmp/$name.Gbx" -o "$tmp/$name.dump.json" || fail "dump $name"
    python3 - "$json" "$tmp/$name.dump.json" <<'PY' || fail "$name reads back to other chunks"
import json, sys
a, b = (json.load(open(p))["body"]["chunks"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
done
for name in intro.Clip triggers.ClipGroup; do
    cmp -s "$tmp/$name.Gbx" "$samples/$name.Gbx" || fail "built $name differs from samples/gbx_mediatracker/$name.Gbx"
done

# 2. bytes as GBX.NET's chunkl layouts lay them out, packed here independently of the writer
python3 - "$tmp/layouts.Clip.Gbx" <<'PY' || fail "layouts.Clip bytes"
import struct, sys
data = open(sys.argv[1], "rb").read()
FACADE = struct.pack("<I", 0xFACADE01)
def expect(what, blob):
    if blob not in data:
        print("missing:", what); sys.exit(1)
# TimeSpeed keys under the Time chunk id 0x03085000: keys(8), then the node ends
expect("time speed", struct.pack("<II", 0x03085000, 3) + struct.pack("<6f", 0, 1, 1, .5, 2, 1) + FACADE)
# Time keys(12)
expect("time", struct.pack("<II", 0x03085000, 2) + struct.pack("<6f", 0, 0, 1, 2, 4, 1) + FACADE)
# CameraSimple 0x030A1002 v2: keys of f32, u8, iso4, 3 f32; i32; i32; bool
key = lambda t: struct.pack("<fB", t, 7) + struct.pack("<12f", 1, 0, 0, 0, 1, 0, 0, 0, 1, 10, 20, 30) + struct.pack("<3f", 90, .5, .25)
expect("camera simple", struct.pack("<III", 0x030A1002, 2, 2) + key(0) + key(1) + struct.pack("<iiI", 1, 2, 1) + FACADE)
# Triangles 001: key times; key count, vertex count, positions; vertices (vec4); triangles (int3); 5 x u32/f32; u64
pos = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1]
expect("triangles", struct.pack("<II2f", 0x03029001, 2, 0, 1) + struct.pack("<II18f", 2, 3, *pos)
       + struct.pack("<I12f", 3, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1) + struct.pack("<I3i", 1, 0, 1, 2)
       + struct.pack("<iiifiq", 1, 0, 0, 1.0, 0, 0))
# race events 2407F003: start, end, bool, u32 count; a stunt (version 2: i32) and a checkpoint (version 3: u8)
stunt = struct.pack("<iiifIIIIii", 2, 360, 15, 1.5, 1, 0, 0, 0, 0, 15)
expect("events", struct.pack("<IffII", 0x2407F003, 0, 10, 1, 6) + struct.pack("<fBiI", 1, 2, 0, 0) + stunt
       + struct.pack("<fBBI", 2, 3, 1, 1) + struct.pack("<ifiii", 0, 2, 1, 2, 3))
# custom camera 006 version 4 (key version 10): its first key's head
expect("custom camera v10", struct.pack("<IIIfI", 0x030A2006, 4, 2, 0, 2) + struct.pack("<IiIi", 0, -1, 1, -1)
       + struct.pack("<7f", 5, 6, 7, 0, 0, 0, 80))
PY

# 3. clip group triggers (0x0307A003, trigger version 3), in an uncompressed copy of the sample
sed 's/"bodyCompression": "C"/"bodyCompression": "U"/' "$samples/triggers.ClipGroup.json" >"$tmp/group-u.json"
"$rebyte" build "$tmp/group-u.json" -o "$tmp/group-u.Gbx" || fail "build uncompressed clip group"
python3 - "$tmp/group-u.Gbx" <<'PY' || fail "trigger bytes"
import struct, sys
data = open(sys.argv[1], "rb").read()
triggers = (struct.pack("<I", 2) + struct.pack("<4iIfI", 0, 0, 0, 0, 0, 0, 2) + struct.pack("<6i", 16, 9, 16, 16, 9, 17)
            + struct.pack("<4iIfI", 0, 0, 0, 0, 6, 0, 1) + struct.pack("<3i", 20, 9, 30) + struct.pack("<I", 0xFACADE01))
sys.exit(0 if triggers in data else 1)
PY

# 4. a version's fields and nothing else (JSON -> model validation)
python3 - "$samples/intro.Clip.json" "$tmp" <<'PY'
import copy, json, sys
clip = json.load(open(sys.argv[1]))
def variant(name, edit):
    c = copy.deepcopy(clip)
    edit(c["body"]["chunks"][0])
    json.dump(c, open("%s/%s.json" % (sys.argv[2], name), "w"))
def track_v0(ch):   # track 005 version 0 has no repeating segment
    ch["tracks"][0]["chunks"][1]["version"] = 0
def camera_v9(ch):  # custom camera 006 versions 0..4 are known
    ch["tracks"][0]["chunks"][0]["blocks"][0]["chunks"][0]["version"] = 9
def fog_v1(ch):     # fog keys of version 1 have no clouds
    ch["tracks"][4]["chunks"][0]["blocks"][0]["chunks"][0]["version"] = 1
def simi_missing(ch):  # simi 005 needs isInterpolated
    del ch["tracks"][1]["chunks"][0]["blocks"][0]["chunks"][0]["effect"]["chunks"][0]["isInterpolated"]
for f in (track_v0, camera_v9, fog_v1, simi_missing):
    variant(f.__name__, f)
PY
for bad in track_v0 camera_v9 fog_v1 simi_missing; do
    if "$rebyte" build "$tmp/$bad.json" -o "$tmp/$bad.Gbx" 2>"$tmp/$bad.err"; then
        fail "$bad was accepted"
    fi
    grep -q "tracks" "$tmp/$bad.err" || fail "$bad: the error does not name the path: $(cat "$tmp/$bad.err")"
done
grep -q "version 9 is not known" "$tmp/camera_v9.err" || fail "camera_v9 error: $(cat "$tmp/camera_v9.err")"

# 5. the sample patch: slower slow motion, a narrower camera, a new title
"$rebyte" apply "$samples/slow-motion.patch.json" "$samples/intro.Clip.Gbx" -o "$tmp/slow.Gbx" || fail "apply patch"
"$rebyte" dump "$tmp/slow.Gbx" -o "$tmp/slow.json" || fail "dump patched"
python3 - "$tmp/slow.json" <<'PY' || fail "patched values"
import json, sys
tracks = json.load(open(sys.argv[1]))["body"]["chunks"][0]["tracks"]
block = lambda t: tracks[t]["chunks"][0]["blocks"][0]["chunks"][0]
speeds = [k["speed"] for k in block(3)["keys"]]
assert speeds == [1.0, 0.1, 0.1, 1.0], speeds
assert block(0)["keys"][1]["fov"] == 60.0
assert tracks[1]["chunks"][0]["blocks"][0]["chunks"][0]["text"] == "$sFinal lap"
PY

[ "$fails" -eq 0 ] && echo "media tracker fixtures: ok"
[ "$fails" -eq 0 ]
