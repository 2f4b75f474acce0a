#!/bin/sh
# The TM2020 media blocks no corpus file has (Entity with its entity record, Object with its
# visibility data, Skel, Decal2d; docs/formats/gbx_mediatracker.md "TM2020 blocks"), in the sample
# samples/gbx_mediatracker/tm2020.Clip.json: it builds to the committed sample, verifies exactly
# (also re-encoded) and fully typed, reads back to the same model, lays out its bytes as GBX.NET's
# chunkl says, refuses versions and fields the layouts do not have, and keeps its race recording.
. "$(dirname "$0")/../lib.sh"
here=$src/tests/gbx_mediatracker
samples=$src/samples/gbx_mediatracker

json=$samples/tm2020.Clip.json
"$rebyte" build --new-record "$json" -o "$tmp/clip.Gbx" || { echo "FAIL build"; exit 1; }
cmp -s "$tmp/clip.Gbx" "$samples/tm2020.Clip.Gbx" || fail "built tm2020.Clip differs from the sample"
"$rebyte" verify --json "$tmp/clip.Gbx" >"$tmp/verify.json" || fail "verify"
grep -q '"opaque_bytes":0,' "$tmp/verify.json" || fail "not fully typed: $(cat "$tmp/verify.json")"
"$rebyte" verify --reencode "$tmp/clip.Gbx" >/dev/null || fail "verify --reencode"
"$rebyte" dump --blobs=base64 "$tmp/clip.Gbx" -o "$tmp/dump.json" || fail "dump"
python3 - "$json" "$tmp/dump.json" <<'PY' || fail "the sample reads back to another model"
import json, sys
def strip(o):  # the record's stream metadata is the writer's, not the author's
    if isinstance(o, dict): return {k: strip(v) for k, v in o.items() if k != "$stream"}
    if isinstance(o, list): return [strip(v) for v in o]
    return o
a, b = (strip(json.load(open(p))["body"]) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY

sed 's/"bodyCompression": "C"/"bodyCompression": "U"/' "$json" >"$tmp/u.json"
"$rebyte" build --new-record "$tmp/u.json" -o "$tmp/u.Gbx" || fail "build uncompressed"
python3 "$here/tm2020_bytes.py" "$tmp/u.Gbx" || fail "bytes differ from the chunkl layouts"

# a version's fields and nothing else; versions nobody has described are refused
python3 - "$json" "$tmp" <<'PY'
import copy, json, sys
clip = json.load(open(sys.argv[1]))
def variant(name, edit):
    c = copy.deepcopy(clip)
    edit(c["body"]["chunks"][0]["tracks"])
    json.dump(c, open("%s/%s.json" % (sys.argv[2], name), "w"))
block = lambda t, track, b: t[track]["chunks"][0]["blocks"][b]["chunks"][0]
def entity_v12(t): block(t, 0, 0)["version"] = 12
def entity_v3_keys(t): block(t, 0, 1)["keys"] = []
def entity_v11_no_ghost_name(t): del block(t, 0, 0)["ghostName"]
def object_v2(t): block(t, 1, 1)["version"] = 2
def skel_v5(t): block(t, 2, 0)["version"] = 5
for f in (entity_v12, entity_v3_keys, entity_v11_no_ghost_name, object_v2, skel_v5):
    variant(f.__name__, f)
PY
for bad in entity_v12 entity_v3_keys entity_v11_no_ghost_name object_v2 skel_v5; do
    if "$rebyte" build --new-record "$tmp/$bad.json" -o "$tmp/$bad.Gbx" 2>"$tmp/$bad.err"; then
        fail "$bad was accepted"
    fi
    grep -q "tracks" "$tmp/$bad.err" || fail "$bad: the error does not name the path: $(cat "$tmp/$bad.err")"
done
grep -q "version 12 is not known" "$tmp/entity_v12.err" || fail "entity_v12: $(cat "$tmp/entity_v12.err")"
grep -q "keys" "$tmp/entity_v3_keys.err" || fail "entity_v3_keys: $(cat "$tmp/entity_v3_keys.err")"

# the entity record is a race recording: a patch may edit the clip around it, never the record
printf '%s' '[{"op":"replace","path":"/body/chunks/0/tracks/0/chunks/0/blocks/0/chunks/0/recordData/chunks/0/compressedData/lengthMs","value":1}]' >"$tmp/forge.json"
"$rebyte" apply -q "$tmp/forge.json" "$samples/tm2020.Clip.Gbx" -o "$tmp/forged.Gbx" 2>"$tmp/forge.err" && fail "the entity record was changed"
grep -q "recordData is a race recording" "$tmp/forge.err" || fail "forging: $(cat "$tmp/forge.err")"
printf '%s' '[{"op":"replace","path":"/body/chunks/0/tracks/0/chunks/0/blocks/0/chunks/0/ghostName","value":"Renamed"}]' >"$tmp/rename.json"
"$rebyte" apply -q "$tmp/rename.json" "$samples/tm2020.Clip.Gbx" -o "$tmp/renamed.Gbx" || fail "renaming the entity's ghost"

[ "$fails" -eq 0 ] && echo "media tracker TM2020 blocks: ok"
[ "$fails" -eq 0 ]
