#!/bin/sh
# Item meshes (core/gbx/item/crystal.c, entity_models.c, solid2.c): moving a vertex is a patch. On the
# sample made by the project's writer (samples/gbx_item/pyramid.Item.json), on every corpus item
# with a crystal mesh, on the vertex stream of a corpus item's game mesh and of an item embedded in
# a corpus map: apply a replace of one position, verify the output, re-read it, and require that
# the re-read model differs from the original in that one value and nowhere else. Also: the crystal
# bytes are laid out as docs/formats/gbx_item.md "Crystal mesh" says (packed here with Python's
# struct, not by the writer), face index widths follow the position count ("Optimized integers"),
# and a value that does not fit its width is refused.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:-.}
samples=$src/samples/gbx_item
corpus=${REBYTE_SHARED:-../shared}/corpus/gbx
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# the path of positions/0 of the first geometry layer's crystal (or, with "stream", of the first
# vertex stream of a CPlugSolid2Model mesh), and its x
first_vertex() { # dump.json [stream] -> "pointer x"
    python3 - "$1" "${2:-crystal}" <<'PY'
import json, sys
def find(x, path):
    if isinstance(x, dict):
        if sys.argv[2] == "crystal":
            if x.get("type") == 0 and isinstance(x.get("crystal"), dict) and x["crystal"].get("positions"):
                return path + "/crystal/positions/0", x["crystal"]["positions"][0]["x"]
        elif x.get("id") == "0x09056000" and x.get("arrays") and x["arrays"][0].get("positions"):
            # (in a map: the first item embedded in it, 0x03043054)
            return path + "/arrays/0/positions/0", x["arrays"][0]["positions"][0]["x"]
        items = x.items()
    elif isinstance(x, list):
        items = enumerate(x)
    else:
        return None
    for k, v in items:
        r = find(v, "%s/%s" % (path, k))
        if r:
            return r
    return None
r = find(json.load(open(sys.argv[1]))["body"], "/body")
print("%s %r" % r if r else "")
PY
}

# leaves that differ between two dumps ($-keys: provenance and stream digests, not the model)
differences() {
    python3 - "$1" "$2" <<'PY'
import json, sys
def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k.startswith("$"):
                continue
            walk(a.get(k), b.get(k), path + "/" + k, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, "%s/%d" % (path, i), out)
    elif a != b:
        out.append(path)
out = []
walk(*(json.load(open(p)) for p in sys.argv[1:3]), "", out)
print("\n".join(out))
PY
}

move_vertex() { # file name [stream]
    "$rebyte" dump "$1" -o "$tmp/$2.before.json" || { fail "dump $2"; return; }
    set -- "$1" "$2" $(first_vertex "$tmp/$2.before.json" "${3:-crystal}")
    [ $# -eq 4 ] || { fail "$2: no crystal positions in the model"; return; }
    new=$(python3 -c "print(float('$4') + 1.5)")
    printf '[{"op":"test","path":"%s/x","value":%s},{"op":"replace","path":"%s/x","value":%s}]\n' \
        "$3" "$4" "$3" "$new" >"$tmp/$2.patch.json"
    "$rebyte" apply "$tmp/$2.patch.json" "$1" -o "$tmp/$2.moved.Gbx" >/dev/null || { fail "$2: apply"; return; }
    "$rebyte" verify "$tmp/$2.moved.Gbx" >/dev/null || fail "$2: the edited file does not verify"
    "$rebyte" verify --reencode "$tmp/$2.moved.Gbx" >/dev/null || fail "$2: the edited file does not verify re-encoded"
    "$rebyte" dump "$tmp/$2.moved.Gbx" -o "$tmp/$2.after.json" || { fail "$2: re-read"; return; }
    got=$(differences "$tmp/$2.before.json" "$tmp/$2.after.json")
    [ "$got" = "$3/x" ] || fail "$2: moving $3/x changed [$got]"
    python3 - "$tmp/$2.after.json" "$3" "$new" <<'PY' || fail "$2: the re-read vertex is not where it was moved"
import json, struct, sys
node = json.load(open(sys.argv[1]))
for part in sys.argv[2].strip("/").split("/"):
    node = node[int(part)] if isinstance(node, list) else node[part]
# positions are f32: the value moved to, rounded to f32
sys.exit(0 if struct.pack("<f", node["x"]) == struct.pack("<f", float(sys.argv[3])) else 1)
PY
}

# 1. the sample: builds to the committed file, fully typed, a vertex moves
"$rebyte" build "$samples/pyramid.Item.json" -o "$tmp/pyramid.Item.Gbx" || fail "build pyramid"
cmp -s "$tmp/pyramid.Item.Gbx" "$samples/pyramid.Item.Gbx" || fail "built pyramid differs from samples/gbx_item/pyramid.Item.Gbx"
"$rebyte" verify --json "$tmp/pyramid.Item.Gbx" | grep -q '"opaque_bytes":0,' || fail "pyramid is not fully typed"
move_vertex "$tmp/pyramid.Item.Gbx" pyramid
"$rebyte" apply "$samples/pyramid-raise-apex.patch.json" "$tmp/pyramid.Item.Gbx" -o "$tmp/apex.Gbx" >/dev/null ||
    fail "sample patch pyramid-raise-apex"
# swapping the material is a patch too: the link changes, and nothing else
"$rebyte" apply "$samples/pyramid-swap-material.patch.json" "$tmp/pyramid.Item.Gbx" -o "$tmp/swap.Gbx" >/dev/null ||
    fail "sample patch pyramid-swap-material"
"$rebyte" dump "$tmp/swap.Gbx" -o "$tmp/swap.json" && "$rebyte" dump "$tmp/pyramid.Item.Gbx" -o "$tmp/pyramid.json" &&
    [ "$(differences "$tmp/pyramid.json" "$tmp/swap.json")" = \
        "/body/chunks/12/entityModelEdition/chunks/0/meshCrystal/chunks/0/materials/0/materialUserInst/chunks/0/link" ] ||
    fail "swapping the material changed more than its link"

# 2. the crystal bytes, packed independently of the writer (an uncompressed copy)
sed 's/"bodyCompression": "C"/"bodyCompression": "U"/' "$samples/pyramid.Item.json" >"$tmp/pyramid-u.json"
"$rebyte" build "$tmp/pyramid-u.json" -o "$tmp/pyramid-u.Gbx" || fail "build uncompressed pyramid"
python3 - "$tmp/pyramid-u.Gbx" <<'PY' || fail "crystal byte layout"
import struct, sys
data = open(sys.argv[1], "rb").read()
def expect(what, blob):
    if blob not in data:
        print("missing:", what); sys.exit(1)
P = [(-4, 0, -4), (4, 0, -4), (4, 0, 4), (-4, 0, 4), (0, 6, 0)]
# positions (u32 count, vec3), edgeCount, empty optimized edge list, face count
expect("positions", struct.pack("<I", 5) + b"".join(struct.pack("<3f", *p) for p in P)
       + struct.pack("<iII", 8, 0, 5))
# v37 faces: u8 (vertex count - 3), u8 indices (5 positions), u8 material (1), u8 group (2)
faces = bytes([1, 0, 1, 2, 3, 0, 0]) + b"".join(bytes([0] + f + [0, 1]) for f in ([1, 0, 4], [2, 1, 4], [3, 2, 4], [0, 3, 4]))
expect("faces", faces)
# texCoordIndices: u32 count 16, u8 each
expect("uv indices", struct.pack("<I", 16) + bytes([0, 1, 2, 3] + [0, 1, 4] * 4))
# a translation layer: type 2, layer version 2, ..., modifier version, mask [group 1], version, vec3
# a translation layer: type 2, layer version 2, not crystal-enabled, id "Layer1" (new lookback
# string), name, enabled, modifier version 0, mask of one part (group 1, ...), then version 0, vec3
string = lambda s: struct.pack("<i", len(s)) + s
expect("translation layer", struct.pack("<iII", 2, 2, 0) + struct.pack("<I", 0x40000000) + string(b"Layer1")
       + string(b"Lift") + struct.pack("<IIIi", 1, 0, 1, 1))
expect("translation", struct.pack("<I", 0) + struct.pack("<3f", 0, 1, 0) + struct.pack("<I", 0x09003006))
# pivots of the placement (0x2E020001): two vec3, one quaternion
expect("pivots", struct.pack("<I", 2) + struct.pack("<6f", 0, 0, 0, 0, 6, 0) + struct.pack("<I", 1) + struct.pack("<4f", 0, 0, 0, 1))
PY

# 2a. an edit that leaves a face pointing past the positions is refused, and says where (the
# writer's structure path and output offset: the engine's one refusal, no whole-model rebuild)
printf '[{"op":"remove","path":"/body/chunks/12/entityModelEdition/chunks/0/meshCrystal/chunks/1/layers/0/crystal/positions/4"}]\n' \
    >"$tmp/remove-apex.json"
if "$rebyte" apply "$tmp/remove-apex.json" "$tmp/pyramid.Item.Gbx" -o "$tmp/noapex.Gbx" 2>"$tmp/noapex.err"; then
    fail "removing a position that faces use was accepted"
fi
grep -q "crystal > faces\[1\]: indices\[2\]" "$tmp/noapex.err" && grep -q "beyond the 4 positions" "$tmp/noapex.err" ||
    fail "no clear message for a face past the positions: $(cat "$tmp/noapex.err")"

# 2b. bad input: a position count far beyond the bytes left is a clear note with the offset and
# path, the rest of the node kept opaque and written back exactly; never a crash
python3 - "$tmp/pyramid-u.Gbx" "$tmp/bad.Gbx" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
P = [(-4, 0, -4), (4, 0, -4)]
at = data.find(struct.pack("<I", 5) + b"".join(struct.pack("<3f", *p) for p in P))
data[at:at + 4] = struct.pack("<I", 0x0FFFFFFF)
open(sys.argv[2], "wb").write(data)
PY
"$rebyte" verify "$tmp/bad.Gbx" >"$tmp/bad.out" 2>&1
case $? in 0 | 1 | 2) ;; *) fail "a bad position count crashed the reader: $(cat "$tmp/bad.out")" ;; esac
grep -q "positions" "$tmp/bad.out" && grep -q "@0x" "$tmp/bad.out" ||
    fail "no offset and path for a bad position count: $(cat "$tmp/bad.out")"

# 3. widths follow the counts: 300 positions make u16 face indices; a value too wide is refused
python3 - "$samples/pyramid.Item.json" "$tmp" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["bodyCompression"] = "U"
def crystal(model):
    for c in model["body"]["chunks"]:
        if c["id"] == "0x2E002019":
            for k in c["entityModelEdition"]["chunks"][0]["meshCrystal"]["chunks"]:
                if k["id"] == "0x09003005":
                    return k["layers"][0]["crystal"]
c = crystal(m)
c["positions"] += [{"x": float(i), "y": 0.0, "z": 0.0} for i in range(295)]
c["faces"][0]["indices"] = [0, 1, 299, 3]
json.dump(m, open(sys.argv[2] + "/wide.json", "w"))
c["positions"] = c["positions"][:5]
json.dump(m, open(sys.argv[2] + "/toowide.json", "w"))
PY
"$rebyte" build "$tmp/wide.json" -o "$tmp/wide.Gbx" || fail "build 300 positions"
"$rebyte" verify "$tmp/wide.Gbx" >/dev/null || fail "300 positions do not verify"
python3 - "$tmp/wide.Gbx" <<'PY' || fail "u16 face indices for 300 positions"
import struct, sys
sys.exit(0 if bytes([1]) + struct.pack("<4H", 0, 1, 299, 3) + bytes([0, 0]) in open(sys.argv[1], "rb").read() else 1)
PY
if "$rebyte" build "$tmp/toowide.json" -o "$tmp/toowide.Gbx" 2>"$tmp/toowide.err"; then
    # 299 fits a u8 index? no: with 5 positions the width is one byte, so 299 must be refused
    fail "an index of 299 with 5 positions (u8 indices) was accepted"
fi
grep -q "does not fit" "$tmp/toowide.err" || fail "no clear message for a too wide index: $(cat "$tmp/toowide.err")"

# 4. every corpus item with a crystal mesh
if [ -d "$corpus" ]; then
    n=0
    for f in "$corpus"/*.Item.Gbx "$corpus"/*.Block.Gbx; do
        [ -f "$f" ] || continue
        "$rebyte" dump "$f" -o "$tmp/probe.json" 2>/dev/null || continue
        [ -n "$(first_vertex "$tmp/probe.json")" ] || continue
        move_vertex "$f" "corpus-$(basename "$f" | cut -c1-8)"
        n=$((n + 1))
    done
    [ "$n" -ge 7 ] || fail "only $n corpus items have a crystal mesh in their model (expected 7 or more)"
    echo "moved a vertex in $n corpus items"
    # a game mesh (CPlugSolid2Model, docs/formats/gbx_item.md "Vertex streams"): its vertex stream
    for f in "$corpus"/9b499f1f*.Item.Gbx; do
        [ -f "$f" ] && move_vertex "$f" "corpus-solid-$(basename "$f" | cut -c1-8)" stream
    done
    # regression (fuzzing): a negative size in a visual's 0x0900600F (no bytes follow) is kept as it is
    for f in "$corpus"/9b499f1f*.Item.Gbx; do
        [ -f "$f" ] || continue
        "$rebyte" dump "$f" --blobs=base64 -o "$tmp/solid.json" || { fail "dump 9b499f1f"; continue; }
        python3 - "$tmp/solid.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
changed = []
def visit(x):
    if isinstance(x, dict):
        if x.get("id") == "0x0900600F" and "u03" in x and "u04" not in x:
            x["u03"] = -2147483648
            changed.append(x)
        for v in x.values():
            visit(v)
    elif isinstance(x, list):
        for v in x:
            visit(v)
visit(d)
json.dump(d, open(sys.argv[1], "w"))
sys.exit(0 if changed else 1)
PY
        [ $? -eq 0 ] || fail "9b499f1f: no 0x0900600F size (u03) in the model"
        "$rebyte" build "$tmp/solid.json" -o "$tmp/negative.Gbx" && "$rebyte" verify "$tmp/negative.Gbx" >/dev/null ||
            fail "a negative 0x0900600F size does not write back"
    done
    # an item embedded in a map: the same patch, through the map's embedded items zip
    for f in "$corpus"/a8da9d84*.Map.Gbx; do
        [ -f "$f" ] && move_vertex "$f" "corpus-embedded-$(basename "$f" | cut -c1-8)" stream
    done
else
    echo "corpus not found: $corpus (set REBYTE_SHARED); the corpus part is skipped"
fi

echo "item mesh edits: $fails failures"
[ "$fails" -eq 0 ]
