#!/bin/sh
# Edits of the asset-list chunks typed in core/datawin/datawin_objt.c, on every corpus data.win:
#   fields (layouts: docs/formats/datawin.md "OBJT", "SOND", "OPTN"): OBJT the first object gets
#        another sprite index and its visible flag flipped; SOND the first sound's volume changes;
#        OPTN the scale changes;
#   growth: a physics vertex is appended to the first object (every later pointer in OBJT moves)
#        and the first action found is appended again to its event (a nested pointer list grows).
# Each output must verify (read -> write exact), `rebyte diff` against the input must show exactly
# the edits, and the re-read output must hold the new values. A growing OBJT moves the chunks
# after it; while TPAG keeps its position as a model field ("laidOutAt", datawin_chunks.c) such a move
# is refused, and the growth edit is then reported as a known limit, not as a failure.
. "$(dirname "$0")/common.sh"
require_corpus

check_edit() {
    kind=$1
    "$rebyte" apply -q "$tmp/$kind.patch.json" "$win" -o "$tmp/out.win" 2>"$tmp/err" || {
        if [ "$kind" = growth ] && grep -q laidOutAt "$tmp/err"; then
            echo "KNOWN $name: OBJT cannot grow yet: $(cat "$tmp/err")"; return 0
        fi
        fail "$name: $kind: apply: $(cat "$tmp/err")"; return 0
    }
    "$rebyte" verify -q "$tmp/out.win" >/dev/null || fail "$name: $kind: the edited file does not verify"
    "$rebyte" diff --plain "$win" "$tmp/out.win" > "$tmp/diff.json"
    python3 - "$tmp/diff.json" "$tmp/$kind.expect.json" "$tmp/in.json" <<'PY' || fail "$name: $kind: diff is not exactly the edit: $(cat "$tmp/diff.json")"
import json, sys
doc = json.load(open(sys.argv[3]))
def at(pointer):
    node = doc
    for part in pointer.strip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node
def key(op):
    # an element equal to one the list holds arrives as a copy of it: the same edit as an add of
    # that element's value
    if op.get("op") == "copy":
        op = {"op": "add", "path": op["path"], "value": at(op["from"])}
    # an element added at the end: the diff names its index, the edit "-" (the re-read below
    # checks that it is the last element)
    if op.get("op") == "add":
        op = dict(op, path=op["path"].rsplit("/", 1)[0] + "/<end>")
    return json.dumps(op, sort_keys=True)
diff = sorted(map(key, json.load(open(sys.argv[1]))))
expect = sorted(map(key, json.load(open(sys.argv[2]))))
assert diff == expect, (diff, expect)
PY
    "$rebyte" dump "$tmp/out.win" -o "$tmp/out.json" || { fail "$name: $kind: dump of the output"; return 0; }
    python3 - "$tmp/out.json" "$tmp/$kind.expect.json" <<'PY' || fail "$name: $kind: re-read does not show the new values"
import json, sys
doc = json.load(open(sys.argv[1]))
for op in json.load(open(sys.argv[2])):
    node = doc
    parts = op["path"].strip("/").split("/")
    for part in parts:
        node = node[-1 if part == "-" else int(part)] if isinstance(node, list) else node[part]
    assert node == op["value"], (op["path"], node, op["value"])
PY
    # the re-read types the edited chunks (no "data" member) with the layout variants of the input
    python3 - "$tmp/in.json" "$tmp/out.json" <<'PY' || fail "$name: $kind: OBJT/SOND layout changed on re-read"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for ca, cb in zip(a["chunks"], b["chunks"]):
    if ca["id"] in ("OBJT", "SOND", "OPTN"):
        assert "data" not in cb, ca["id"]
        for k in ("managedFlag", "audioLengthField"):
            assert ca.get(k) == cb.get(k), (ca["id"], k)
PY
}

for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    python3 - "$tmp/in.json" "$tmp" <<'PY' || { fail "$name: OBJT/SOND/OPTN not typed"; continue; }
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = doc["chunks"]
index = {c["id"]: i for i, c in enumerate(chunks)}
edits = {"fields": ([], []), "growth": ([], [])}

def edit(chunk, path, value, op="replace", kind="fields"):
    patch, expect = edits[kind]
    patch.append({"op": op, "path": "/chunks/[id=%s]/%s" % (chunk, path), "value": value})
    expect.append({"op": op, "path": "/chunks/%d/%s" % (index[chunk], path), "value": value})

objt = chunks[index["OBJT"]]
if "objects" not in objt or "sounds" not in chunks[index["SOND"]] or "constants" not in chunks[index["OPTN"]]:
    sys.exit(1)
o, obj = next((i, x) for i, x in enumerate(objt["objects"]) if not x.get("removed"))
# another sprite index that still names a sprite (or -1, none): the game rule references-in-range
# refuses one outside SPRT (docs/formats/datawin.md "Game rules")
sprites = chunks[index["SPRT"]].get("sprites") if "SPRT" in index else None
if sprites is None:
    edit("OBJT", "objects/%d/spriteId" % o, obj["spriteId"] + 1)
elif sprites:
    choices = [-1] + list(range(len(sprites)))
    edit("OBJT", "objects/%d/spriteId" % o, choices[(choices.index(obj["spriteId"]) + 1) % len(choices)])
edit("OBJT", "objects/%d/visible" % o, not obj["visible"])
edit("OBJT", "objects/%d/physicsVertices/-" % o, {"x": 1.5, "y": -2.25}, "add", "growth")
found = next(((i, t, e, ev["actions"][0]) for i, x in enumerate(objt["objects"]) if not x.get("removed")
              for t, et in enumerate(x["eventTypes"]) for e, ev in enumerate(et.get("events", []))
              if ev.get("actions") and not ev["actions"][0].get("removed")), None)
if found:
    i, t, e, action = found
    edit("OBJT", "objects/%d/eventTypes/%d/events/%d/actions/-" % (i, t, e), action, "add", "growth")
sounds = [(i, s) for i, s in enumerate(chunks[index["SOND"]]["sounds"]) if not s.get("removed")]
if sounds:
    i, s = sounds[0]
    edit("SOND", "sounds/%d/volume" % i, 0.25 if s["volume"] != 0.25 else 0.75)
edit("OPTN", "scale", chunks[index["OPTN"]]["scale"] + 1)
for kind, (patch, expect) in edits.items():
    json.dump(patch, open("%s/%s.patch.json" % (sys.argv[2], kind), "w"))
    json.dump(expect, open("%s/%s.expect.json" % (sys.argv[2], kind), "w"))
PY
    check_edit fields
    check_edit growth
done
[ "$fails" -eq 0 ] && echo "datawin objt/sond/optn edits: ok"
[ "$fails" -eq 0 ]
