#!/bin/sh
# Map header chunks and skippable map chunks on the project's own sample (built from JSON):
# the sample is what `rebyte build` makes of its JSON, every chunk of it is typed, and edits that
# change derived values (thumbnail size, header chunk sizes, SmallLen counts, id tables) give
# files whose stored sizes match what an independent reader (check_sizes.py) finds.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:?}
dir=$src/samples/gbx-mapextra
here=$src/tests/gbx_mapextra
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

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
# chunk 061 (docs/formats/gbx-mapextra.md "Skippable body chunks"): version, two u32, the
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

[ "$fails" -eq 0 ] && echo "gbx map extras samples: all passed"
[ "$fails" -eq 0 ]
