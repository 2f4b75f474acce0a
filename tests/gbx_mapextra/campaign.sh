#!/bin/sh
# A campaign (docs/formats/gbx_mapextra.md "Campaign chunks"): the sample is what `rebyte build`
# makes of its JSON and is every byte typed; its bytes are checked against a packing of the
# layout of its own (Python struct); a map added to a group comes back from the written file.
. "$(dirname "$0")/../lib.sh"
dir=$src/samples/gbx_mapextra
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 77; }
"$rebyte" build "$dir/tiny.Campaign.json" -o "$tmp/built.Gbx" || fail "build tiny.Campaign.json"
cmp -s "$tmp/built.Gbx" "$dir/tiny.Campaign.Gbx" || fail "tiny.Campaign.Gbx is not what \`rebyte build\` makes of its JSON"
"$rebyte" info --json "$dir/tiny.Campaign.Gbx" | grep -q '"opaque_bytes":0' || fail "the campaign is not every byte typed"
python3 - "$dir/tiny.Campaign.Gbx" <<'PY' || fail "the campaign's bytes are not the layout"
import struct, sys
b = open(sys.argv[1], "rb").read()
p = b.index(struct.pack("<I", 0x03090000), 9 + 4)  # the body's first chunk, after the header's class
def u32():
    global p
    v = struct.unpack_from("<I", b, p)[0]; p += 4; return v
ids = []
def text():
    n = u32(); global p
    t = b[p:p + n].decode(); p += n; return t
def lookback():
    v = u32()
    if v == 3: v = u32()
    if v == 0x40000000: ids.append(text()); return ids[-1]
    return ids[(v & 0x3FFFFFFF) - 1]
assert u32() == 0x03090000 and u32() == 10 and u32() == 2  # map groups: list version, count
groups = []
for _ in range(2):
    index, cls = u32(), u32()
    assert cls == 0x0308F000 and u32() == 0x0308F002
    name = text()
    assert u32() == 0x0308F006 and u32() == 0
    maps = [(lookback(), lookback(), lookback()) for _ in range(u32())]
    assert u32() == 0xFACADE01
    groups.append((name, maps))
assert [g[0] for g in groups] == ["White", "Green"] and len(groups[0][1]) == 2, groups
assert u32() == 0x03090004 and text() == "Tiny" and u32() == 1
PY
printf '%s' '[{"op":"add","path":"/body/chunks/0/challengeGroups/1/chunks/1/mapInfos/-","value":{"metadata":{"id":"uidB0000000000000000000001","collection":"Stadium","author":"Nadeo"}}}]' > "$tmp/add.json"
"$rebyte" apply -q "$tmp/add.json" "$dir/tiny.Campaign.Gbx" -o "$tmp/more.Gbx" || fail "add a map to a group"
"$rebyte" verify -q "$tmp/more.Gbx" >/dev/null || fail "the grown campaign does not verify"
"$rebyte" dump "$tmp/more.Gbx" | grep -q "uidB0000000000000000000001" || fail "the added map is not in the file"
finish "campaign"
