#!/bin/sh
# TMUnlimiter's chunk of versions 1 and 6 (docs/formats/gbx_mapextra.md "TMUnlimiter chunks"):
# the corpus's TMUnlimiter map with its chunk rewritten as version 1 (its blocks with byte
# coordinates) and as version 6 (a flag byte of its own, a moved decoration, the blocks of 7)
# builds, reads back to the same chunk, verifies exactly; a coordinate a byte cannot hold is
# refused.
. "$(dirname "$0")/../lib.sh"
map=$(ls "${REBYTE_SHARED:-}"/corpus/gbx/b2124842_*.Challenge.Gbx 2>/dev/null | head -1)
[ -f "$map" ] || { echo "the corpus's TMUnlimiter map is not at hand: skipped"; exit 77; }
"$rebyte" dump "$map" -o "$tmp/m.json" || fail "dump"
python3 - "$tmp/m.json" "$tmp/v1.json" "$tmp/big.json" "$tmp/v6.json" <<'PY' || fail "no TMUnlimiter 3F001003 chunk of version 7"
import copy, json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["body"]["chunks"] if c["id"] == "0x3F001003"][0]
assert c["version"] == 7
v7 = copy.deepcopy(c)
blocks = [{k: b[k] for k in ("name", "collection", "coord", "direction", "flags")} for b in c["blocks"]]
for k in list(c):
    if k != "id": del c[k]
c.update({"version": 1, "blocks": blocks})
json.dump(d, open(sys.argv[2], "w"))
c["blocks"][0]["coord"] = [300, 7, 21]
json.dump(d, open(sys.argv[3], "w"))
for k in list(c):
    if k != "id": del c[k]
c.update({"version": 6, "flags": "0x01", "decorationOffset": [1.0, 2.0, 3.0], "legacyScripts": [],
          "parameterSets": [], "mediaClipMappings": [], "blockGroups": [], "blocks": v7["blocks"]})
json.dump(d, open(sys.argv[4], "w"))
PY
"$rebyte" build "$tmp/v1.json" -o "$tmp/v1.Gbx" --source "$map" 2>"$tmp/err" || fail "build version 1: $(cat "$tmp/err")"
"$rebyte" verify -q "$tmp/v1.Gbx" >/dev/null && "$rebyte" verify -q --reencode "$tmp/v1.Gbx" >/dev/null ||
    fail "the version-1 map does not verify"
"$rebyte" dump "$tmp/v1.Gbx" -o "$tmp/back.json" || fail "dump the version-1 map"
python3 - "$tmp/v1.json" "$tmp/back.json" <<'PY' || fail "the blocks of version 1 do not read back"
import json, sys
chunk = lambda p: [c for c in json.load(open(p))["body"]["chunks"] if c["id"] == "0x3F001003"][0]
a, b = chunk(sys.argv[1]), chunk(sys.argv[2])
assert b["version"] == 1 and "data" not in b, b
assert a["blocks"] == b["blocks"] and len(b["blocks"]) > 0, (a["blocks"][:2], b["blocks"][:2])
PY
"$rebyte" build "$tmp/big.json" -o "$tmp/big.Gbx" --source "$map" 2>"$tmp/err" && fail "a coordinate of 300 was built in bytes"
"$rebyte" build "$tmp/v6.json" -o "$tmp/v6.Gbx" --source "$map" 2>"$tmp/err" || fail "build version 6: $(cat "$tmp/err")"
"$rebyte" verify -q "$tmp/v6.Gbx" >/dev/null || fail "the version-6 map does not verify"
"$rebyte" dump "$tmp/v6.Gbx" -o "$tmp/back6.json" || fail "dump the version-6 map"
python3 - "$tmp/v6.json" "$tmp/back6.json" <<'PY' || fail "the chunk of version 6 does not read back"
import json, sys
chunk = lambda p: [c for c in json.load(open(p))["body"]["chunks"] if c["id"] == "0x3F001003"][0]
a, b = chunk(sys.argv[1]), chunk(sys.argv[2])
assert a == b, (a, b)
PY
finish "TMUnlimiter versions 1 and 6"
