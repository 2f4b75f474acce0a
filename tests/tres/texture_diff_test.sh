#!/bin/sh
# A Trespasser texture edit diffs to that texture (docs/usage.md "Diffs", docs/formats/tres.md
# "Assets"): a swap image of four 64x64 textures (built from JSON, with its .pid) has one texture
# recoloured through `replace --with`; then
#  1. `rebyte diff` of the two swap images is one operation, a byte range of the swap image
#     ({"$splice"}: the texture's rows; its texels are bytes, not compressed), at most 4x the
#     texture's texels (64x64 bytes of the 16 KB image), pinned by the bytes it replaces, and
#     apply of it (pinned, plain and by identity) gives the edited file's bytes;
#  2. applied to another build whose other textures differ but whose edited texture is where it
#     was, it puts exactly that texture there;
#  3. applied to a build whose texture there differs, it is refused, naming the range.
. "$(dirname "$0")/../lib.sh"
require_python
python3 - "$tmp" <<'PY'
import base64, json, os, sys
tmp = sys.argv[1]
size, textures = 64, 4
entries = []
for k in range(textures):
    entries.append({"swpOffset": "0x%08X" % (k * size * size), "width": size, "height": size, "stride": size,
                    "bitsPerPixel": 8, "constantColour": "0x00808080", "transparent": "0x00000000", "bump": "0x00000000",
                    "occlusion": "0x00000000", "palette": "0x00000000", "padding": {"$base64": "AAAAAA=="},
                    "textureId": "0x%08X" % (0x10000000 + k), "mipInfo": "0x00000000"})
pid = {"$format": "pid", "version": "0x00000130", "bumpBitDepth": 16, "swpPageableOffset": "0x00010000",
       "swpNonPageableUsed": "0x00004000",
       "palettes": [{"colours": ["0x00000000", "0x00FF0000", "0x0000FF00", "0x000000FF", "0x00FFFFFF", "0x00808080"],
                     "spareSlot": {"$base64": "AAAAAA=="}}], "entries": entries}
def texels(seed):
    return bytes(((x // 8 + y // 8 + seed) % 5) + 1 for y in range(size) for x in range(size))
def spz(seeds):
    return {"$format": "spz", "swap": {"texels": {"$base64": base64.b64encode(b"".join(texels(s) for s in seeds)).decode()}}}
json.dump(pid, open(os.path.join(tmp, "t.pid.json"), "w"))
json.dump(spz([0, 1, 2, 3]), open(os.path.join(tmp, "a.spz.json"), "w"))
json.dump(spz([4, 1, 2, 0]), open(os.path.join(tmp, "other.spz.json"), "w"))   # texture 1 as in A
json.dump(spz([0, 3, 2, 3]), open(os.path.join(tmp, "moved.spz.json"), "w"))   # texture 1 not
PY
for f in t.pid a.spz other.spz moved.spz; do
    "$rebyte" build "$tmp/$f.json" -o "$tmp/$f" || fail "build $f"
done
"$rebyte" extract -q "$tmp/a.spz" --with "$tmp/t.pid" -o "$tmp/x" || fail "extract"
png=$(ls "$tmp"/x/textures/0001-*.png)
python3 - "$png" "$tmp/edited.png" <<'PY' || fail "recolour"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
# the palettised PNG extract writes: swap palette entries 1 and 2 (red and green) in its PLTE
at, out = 8, data[:8]
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    body = data[at + 8:at + 8 + length]
    if kind == b"PLTE":
        colours = [body[i:i + 3] for i in range(0, len(body), 3)]
        colours[1], colours[2] = colours[2], colours[1]
        body = b"".join(colours)
    out += struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    at += 12 + length
open(sys.argv[2], "wb").write(out)
PY
"$rebyte" replace -q "$tmp/a.spz" /swap/texels/1 "$tmp/edited.png" --with "$tmp/t.pid" -o "$tmp/b.spz" 2>"$tmp/err" ||
    fail "replace the texture: $(cat "$tmp/err")"
# 1. one byte range, small, exact
for flag in "" --plain --by-identity; do
    "$rebyte" diff $flag "$tmp/a.spz" "$tmp/b.spz" >"$tmp/diff.json"
    [ $? -eq 1 ] || fail "diff $flag"
    python3 - "$tmp/diff.json" "$png" "$flag" <<'PY' || fail "the diff $flag: $(cat "$tmp/diff.json" | head -c 600)"
import json, os, sys
doc = json.load(open(sys.argv[1]))
ops = doc if isinstance(doc, list) else doc["operations"]
changes = [o for o in ops if o["op"] != "test"]
assert len(changes) == 1 and list(changes[0]["value"]) == ["$splice"], changes
splice = changes[0]["value"]["$splice"]
assert splice["size"] <= 64 * 64 and 4096 <= splice["at"] < 8192, splice
if sys.argv[3] != "--plain":
    pins = [o for o in ops if o["op"] == "test"]
    assert pins and list(pins[0]["value"]) == ["$splice"] and pins[0]["value"]["$splice"]["at"] == splice["at"], pins
ratio = os.path.getsize(sys.argv[1]) / (64 * 64)
assert ratio <= 4, "%.2fx the texture's texels" % ratio
print("%.2f" % ratio)
PY
    "$rebyte" apply -q "$tmp/diff.json" "$tmp/a.spz" -o "$tmp/again.spz" && cmp -s "$tmp/again.spz" "$tmp/b.spz" ||
        fail "apply(diff $flag) does not give the edited file's bytes"
done
# 2. another build, texture 1 where it was: it is put there, the others stay that build's
"$rebyte" diff --by-identity "$tmp/a.spz" "$tmp/b.spz" >"$tmp/identity.json"
"$rebyte" apply -q "$tmp/identity.json" "$tmp/other.spz" -o "$tmp/c.spz" 2>"$tmp/err" ||
    fail "the diff on another build: $(cat "$tmp/err")"
"$rebyte" extract -q "$tmp/c.spz" --with "$tmp/t.pid" -o "$tmp/z" || fail "extract the other build"
"$rebyte" extract -q "$tmp/b.spz" --with "$tmp/t.pid" -o "$tmp/y" || fail "extract B"
"$rebyte" extract -q "$tmp/other.spz" --with "$tmp/t.pid" -o "$tmp/o" || fail "extract the other build before"
for k in 0000 0001 0002 0003; do
    want="$tmp/o"; [ $k = 0001 ] && want="$tmp/y"
    cmp -s "$want"/textures/$k-*.png "$tmp"/z/textures/$k-*.png || fail "texture $k on the other build"
done
# 3. a build whose texture there differs: refused, naming the range
if "$rebyte" apply -q "$tmp/identity.json" "$tmp/moved.spz" -o "$tmp/refused.spz" 2>"$tmp/err"; then
    fail "the diff applied to a build whose texture differs"
fi
grep -q "splice" "$tmp/err" || fail "refusal: $(cat "$tmp/err")"
[ ! -e "$tmp/refused.spz" ] || fail "a refused patch wrote a file"
[ "$fails" -eq 0 ] && echo "Trespasser texture diffs: one byte range of the swap image: ok"
[ "$fails" -eq 0 ]
