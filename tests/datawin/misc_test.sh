#!/bin/sh
# Edits of the smaller newer chunks on every corpus data.win (layouts: docs/formats/datawin.md
# "TGIN" to "PSYS"): an embedded image is renamed and pointed at another TPAG item (EMBI), a tag is
# renamed and an asset's tags move to another asset id (TAGS), a filter effect is renamed (FEDS), a
# texture group is renamed and its load type changed (TGIN), a feature flag is added (FEAT); new
# names are STRG strings added by the patch. The output must verify (read -> write exact), re-read
# with those chunks typed, its dump must be the input's dump with exactly those changes, and `rebyte
# diff` must touch only the edited chunks (and STRG).
# Then a particle emitter and a system using it are added (PSEM, PSYS) to the model where the file
# has those chunks, and the file is built from it: PSEM grows, so everything after it moves; while
# a chunk that holds absolute pointers is still kept opaque, the writer refuses the move and that
# part is skipped (noted). First, a synthetic SEQN sample (runs without the corpus too).
. "$(dirname "$0")/common.sh"
edited=0
emitters=0

# SEQN: no corpus file has sequences, so tests/datawin/fixtures/seqn_sample.json is the sample game
# (samples/datawin/sample.json) with a SEQN chunk holding one sequence with every typed track kind
# (graphic, real with a curve id or an embedded curve, colour, text, audio, a group owning a curve),
# broadcast messages, function ids and moments. Built, it must verify, re-read to the same SEQN
# model (the layout flags decided from the bytes), dump -> build exactly, and take a patch that
# edits a real keyframe, a point of an embedded curve and a text keyframe (a new STRG string).
seqn_fixture="$src/tests/datawin/fixtures/seqn_sample.json"
if built_fixture "$seqn_fixture" seqn; then
    seqn_track=/chunks/[id=SEQN]/sequences/0/tracks
    cat > "$tmp/seqn_patch.json" <<EOF
[{"op": "replace", "path": "$seqn_track/0/tracks/0/keyframes/0/channels/0/value", "value": 512.5},
 {"op": "replace", "path": "$seqn_track/0/tracks/1/keyframes/0/channels/0/curve/channels/0/points/1/value", "value": 42.0},
 {"op": "add", "path": "/chunks/[id=STRG]/strings/-", "value": "seqn edited text"},
 {"op": "replace", "path": "$seqn_track/1/keyframes/0/channels/0/text", "value": "seqn edited text"}]
EOF
    patched_file "$tmp/seqn_patch.json" "$tmp/seqn.win" seqn_edit
    python3 - "$seqn_fixture" "$tmp/seqn.json" "$tmp/seqn_edit.json" <<'PY' || fail "SEQN sample: models"
import sys
from fixture_models import check_fixture_edit
def edits(seqn):
    tracks = seqn["sequences"][0]["tracks"]
    tracks[0]["tracks"][0]["keyframes"][0]["channels"][0]["value"] = 512.5
    tracks[0]["tracks"][1]["keyframes"][0]["channels"][0]["curve"]["channels"][0]["points"][1]["value"] = 42.0
    tracks[1]["keyframes"][0]["channels"][0]["text"] = "seqn edited text"
check_fixture_edit("SEQN", *sys.argv[1:4], edits)
PY
fi

if ! ls "$corpus"/*.win >/dev/null 2>&1; then
    [ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
    echo "SKIP: no data.win corpus in $corpus (the SEQN sample passed)"
    exit 77
fi

# compare.py OUT.json EXPECT.json DIFF.json TOUCHED: the output's dump is the expected model
# (positions aside), and the diff stays inside the touched chunks.
cat > "$tmp/compare.py" <<'PY'
import json, sys
def strip(node):
    # where things are is not what was edited (chunk positions, blob offsets); booleans and hex
    # numbers have more than one JSON spelling
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k not in ("laidOutAt", "offset")}
    if isinstance(node, list):
        return [strip(v) for v in node]
    if isinstance(node, bool):
        return int(node)
    if isinstance(node, str) and node.startswith("0x"):
        return node.lower()
    return node
out, expect = strip(json.load(open(sys.argv[1]))), strip(json.load(open(sys.argv[2])))
for i, (a, b) in enumerate(zip(out["chunks"], expect["chunks"])):
    assert a == b, "chunk %d (%s) is not the expected model" % (i, b.get("id"))
assert len(out["chunks"]) == len(expect["chunks"]), "chunk count"
touched = set(json.loads(sys.argv[4]))
for op in json.load(open(sys.argv[3])):
    k = int(op["path"].split("/")[2])
    assert k in touched or op["path"].endswith("/laidOutAt"), "diff outside the edited chunks: %s" % op["path"]
PY

for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    python3 - "$tmp/in.json" "$tmp/patch.json" "$tmp/expect.json" "$tmp/touched.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = doc["chunks"]
at = {c["id"]: i for i, c in enumerate(chunks)}
# the chunks with a plain layout must be typed wherever they occur (no "data" member)
opaque = [c["id"] for c in chunks if c["id"] in ("DAFL", "EMBI", "FEAT", "TGIN", "TAGS", "FEDS") and "data" in c]
if opaque:
    print("typed chunks kept opaque: %s" % " ".join(opaque))
    sys.exit(1)
new_name = "misc test: a new name"
patch, touched = [], set()
def edit(cid, rel, value):
    k = at[cid]
    node = chunks[k]
    parts = rel.strip("/").split("/")
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if parts[-1] == "-":
        node.append(value)
    else:
        node[parts[-1]] = value
    patch.append({"op": "add" if parts[-1] == "-" else "replace", "path": "/chunks/[id=%s]/%s" % (cid, rel.strip("/")),
                  "value": value})
    touched.add(k)
def live(items):
    return [i for i, x in enumerate(items) if not x.get("removed")]
tpag_items = len(chunks[at["TPAG"]].get("items", [])) if "TPAG" in at else 0
if chunks[at["EMBI"]].get("images") if "EMBI" in at else False:
    image = chunks[at["EMBI"]]["images"][0]
    edit("EMBI", "images/0/name", new_name)
    if tpag_items > 1:
        edit("EMBI", "images/0/texture", (image["texture"] + 1) % tpag_items)
if "TAGS" in at:
    tags = chunks[at["TAGS"]]
    if tags["tags"]:
        edit("TAGS", "tags/0/name", new_name)
    for i in live(tags["assetTags"])[:1]:
        edit("TAGS", "assetTags/%d/assetId" % i, tags["assetTags"][i]["assetId"] + 1)
if "FEDS" in at:
    for i in live(chunks[at["FEDS"]]["effects"])[:1]:
        edit("FEDS", "effects/%d/name" % i, new_name)
if "TGIN" in at:
    for i in live(chunks[at["TGIN"]]["groups"])[:1]:
        group = chunks[at["TGIN"]]["groups"][i]
        edit("TGIN", "groups/%d/name" % i, new_name)
        if "loadType" in group:
            edit("TGIN", "groups/%d/loadType" % i, group["loadType"] ^ 1)
if "FEAT" in at:
    edit("FEAT", "features/-", {"name": new_name})
if not patch:
    sys.exit(3)
edit("STRG", "strings/-", new_name)
json.dump(patch, open(sys.argv[2], "w"))
json.dump(doc, open(sys.argv[3], "w"))
json.dump(sorted(touched), open(sys.argv[4], "w"))
PY
    case $? in
    0) ;;
    3) echo "note: $name has none of the edited chunks with content"; continue ;;
    *) fail "$name: reading the model"; continue ;;
    esac
    "$rebyte" apply -q "$tmp/patch.json" "$win" -o "$tmp/out.win" || { fail "$name: apply"; continue; }
    "$rebyte" verify -q "$tmp/out.win" >/dev/null || fail "$name: the edited file does not verify"
    "$rebyte" dump "$tmp/out.win" -o "$tmp/out.json" || { fail "$name: dump of the output"; continue; }
    "$rebyte" diff --plain "$win" "$tmp/out.win" > "$tmp/diff.json" # exit status 1: the files differ
    [ -s "$tmp/diff.json" ] || { fail "$name: diff"; continue; }
    python3 "$tmp/compare.py" "$tmp/out.json" "$tmp/expect.json" "$tmp/diff.json" "$(cat "$tmp/touched.json")" ||
        { fail "$name: the output is not exactly the edit"; continue; }
    edited=$((edited + 1))

    # PSEM/PSYS: add an emitter (in the chunk's layout) and a system using it
    python3 - "$tmp/in.json" "$tmp/expect2.json" "$tmp/touched2.json" <<'PY' || continue
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = doc["chunks"]
at = {c["id"]: i for i, c in enumerate(chunks)}
if "PSEM" not in at or "PSYS" not in at or "data" in chunks[at["PSEM"]] or "data" in chunks[at["PSYS"]]:
    sys.exit(1)
psem, psys = chunks[at["PSEM"]], chunks[at["PSYS"]]
since = psem["layoutSince"]
name = "misc test: an emitter"
emitter = {"name": name}
if since >= 202306: emitter["enabled"] = True
emitter["mode"] = 0
if since >= 202308:
    emitter.update(emitCount=2.0, emitRelative=False, delayMin=0.0, delayMax=0.5, delayUnit=0, intervalMin=0.0,
                   intervalMax=0.0, intervalUnit=0)
else:
    emitter["emitCount"] = 2
emitter.update(distribution=0, shape=1, regionX=-32.0, regionY=-16.0, regionWidth=64.0, regionHeight=32.0,
               rotation=0.0, spriteId=-1, texture=3, frameIndex=0.0)
if since >= 202304: emitter.update(animate=False, stretch=False, isRandom=True)
emitter.update(startColor="0xFFFFFFFF", midColor="0xFF80FF80", endColor="0x00FFFFFF", additiveBlend=True,
               lifetimeMin=30.0, lifetimeMax=60.0, scaleX=1.0, scaleY=1.0)
if since >= 202308:
    emitter.update(sizeMinX=0.5, sizeMaxX=1.0, sizeMinY=0.5, sizeMaxY=1.0, sizeIncreaseX=0.0, sizeIncreaseY=0.0,
                   sizeWiggleX=0.0, sizeWiggleY=0.0)
else:
    emitter.update(sizeMin=0.5, sizeMax=1.0, sizeIncrease=0.0, sizeWiggle=0.0)
emitter.update(speedMin=1.0, speedMax=2.5, speedIncrease=0.0, speedWiggle=0.0, gravityForce=0.1,
               gravityDirection=270.0, directionMin=0.0, directionMax=360.0, directionIncrease=0.0,
               directionWiggle=0.0, orientationMin=0.0, orientationMax=0.0, orientationIncrease=0.0,
               orientationWiggle=0.0, orientationRelative=False, spawnOnDeath=-1, spawnOnDeathCount=1,
               spawnOnUpdate=-1, spawnOnUpdateCount=1)
system = {"name": name, "originX": 12, "originY": -7, "drawOrder": 0}
if psys["layoutSince"] >= 202308: system["globalSpaceParticles"] = False
system["emitters"] = [len(psem["emitters"])]
chunks[at["STRG"]]["strings"].append(name)
psem["emitters"].append(emitter)
psys["systems"].append(system)
json.dump(doc, open(sys.argv[2], "w"))
json.dump(sorted({at["STRG"], at["PSEM"], at["PSYS"]}), open(sys.argv[3], "w"))
PY
    # built from the patched model: `apply` would also compare TPAG's recorded position
    # ("laidOutAt"), which moves with PSEM
    if ! "$rebyte" build "$tmp/expect2.json" -o "$tmp/out2.win" 2> "$tmp/err2.txt"; then
        if grep -q -e "TPAG must stay" -e "is kept opaque and holds absolute pointers" "$tmp/err2.txt"; then
            echo "note: $name: adding an emitter skipped: $(head -c 200 "$tmp/err2.txt")"
        else
            fail "$name: adding an emitter: $(cat "$tmp/err2.txt")"
        fi
        continue
    fi
    "$rebyte" verify -q "$tmp/out2.win" >/dev/null || fail "$name: the file with a new emitter does not verify"
    "$rebyte" dump "$tmp/out2.win" -o "$tmp/out2.json" || { fail "$name: dump of the file with a new emitter"; continue; }
    "$rebyte" diff --plain "$win" "$tmp/out2.win" > "$tmp/diff2.json"
    [ -s "$tmp/diff2.json" ] || { fail "$name: diff (emitter)"; continue; }
    python3 "$tmp/compare.py" "$tmp/out2.json" "$tmp/expect2.json" "$tmp/diff2.json" "$(cat "$tmp/touched2.json")" ||
        fail "$name: the file with a new emitter is not exactly the edit"
    emitters=$((emitters + 1))
done
[ "$edited" -gt 0 ] || fail "no corpus file was edited"
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "misc chunk edits: $edited file(s) edited, $emitters with a new particle emitter; re-read and diffed"
