#!/bin/sh
# ROOM edits on every corpus data.win (docs/formats/datawin.md "ROOM"): a room's width and height
# change and an instance moves (x, y). The output must verify (read -> write exact), be read with
# ROOM typed, and `rebyte diff` against the input must show exactly those four values and nothing
# else. Where a file has two rooms, the first room's last view moves to the second room: the chunk
# keeps its size but every sub-list pointer in between moves; the result must verify, re-read with
# the view counts changed, and moving the view back must give the original file byte for byte.
. "$(dirname "$0")/common.sh"
require_corpus

for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    # the patch: the first room gets a new size, the first instance of any room moves by (+7, -3)
    python3 - "$tmp/in.json" "$tmp/patch.json" "$tmp/expect.json" <<'PY' || { fail "$name: ROOM is not typed"; continue; }
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = doc["chunks"] if "chunks" in doc else doc["root"]["chunks"]
k, room = next((i, c) for i, c in enumerate(chunks) if c["id"] == "ROOM")
if "rooms" not in room:
    sys.exit(1)
rooms = [(i, r) for i, r in enumerate(room["rooms"]) if not r.get("removed")]
base = "/chunks/[id=ROOM]/rooms"
patch, expect = [], {}
r0, first = rooms[0]
for key, delta in (("width", 32), ("height", 16)):
    patch.append({"op": "replace", "path": "%s/%d/%s" % (base, r0, key), "value": first[key] + delta})
    expect["/chunks/%d/rooms/%d/%s" % (k, r0, key)] = first[key] + delta
ri, inst = next((i, r) for i, r in rooms if r["instances"] and not r["instances"][0].get("removed"))
for key, delta in (("x", 7), ("y", -3)):
    value = inst["instances"][0][key] + delta
    patch.append({"op": "replace", "path": "%s/%d/instances/0/%s" % (base, ri, key), "value": value})
    expect["/chunks/%d/rooms/%d/instances/0/%s" % (k, ri, key)] = value
json.dump(patch, open(sys.argv[2], "w"))
json.dump(expect, open(sys.argv[3], "w"))
PY
    "$rebyte" apply -q "$tmp/patch.json" "$win" -o "$tmp/out.win" || { fail "$name: apply"; continue; }
    "$rebyte" verify -q "$tmp/out.win" >/dev/null || fail "$name: the edited file does not verify"
    "$rebyte" diff --plain "$win" "$tmp/out.win" > "$tmp/diff.json"
    python3 - "$tmp/diff.json" "$tmp/expect.json" <<'PY' || fail "$name: diff is not exactly the edit: $(cat "$tmp/diff.json")"
import json, sys
diff = json.load(open(sys.argv[1]))
expect = json.load(open(sys.argv[2]))
got = {op["path"]: op.get("value") for op in diff}
assert all(op["op"] == "replace" for op in diff), diff
assert got == expect, (got, expect)
PY
    "$rebyte" dump "$tmp/out.win" -o "$tmp/out.json" || { fail "$name: dump of the output"; continue; }
    python3 - "$tmp/out.json" "$tmp/expect.json" <<'PY' || fail "$name: re-read does not show the new values"
import json, sys
doc = json.load(open(sys.argv[1]))
for path, value in json.load(open(sys.argv[2])).items():
    node = doc if "chunks" in doc else doc["root"]
    for part in path.strip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    assert node == value, (path, node, value)
PY
    python3 - "$tmp/in.json" "$tmp/move.json" "$tmp/back.json" <<'PY' || continue
import json, sys
doc = json.load(open(sys.argv[1]))
room = next(c for c in doc["chunks"] if c["id"] == "ROOM")
rooms = [i for i, r in enumerate(room["rooms"]) if not r.get("removed")]
if len(rooms) < 2 or not room["rooms"][rooms[0]]["views"]:
    sys.exit(1)
a, b = rooms[0], rooms[1]
last = len(room["rooms"][a]["views"]) - 1
view = room["rooms"][a]["views"][last]
base = "/chunks/[id=ROOM]/rooms"
json.dump([{"op": "remove", "path": "%s/%d/views/%d" % (base, a, last)},
           {"op": "add", "path": "%s/%d/views/-" % (base, b), "value": view}], open(sys.argv[2], "w"))
json.dump([{"op": "remove", "path": "%s/%d/views/%d" % (base, b, len(room["rooms"][b]["views"]))},
           {"op": "add", "path": "%s/%d/views/-" % (base, a), "value": view}], open(sys.argv[3], "w"))
PY
    "$rebyte" apply -q "$tmp/move.json" "$win" -o "$tmp/moved.win" || { fail "$name: moving a view"; continue; }
    "$rebyte" verify -q "$tmp/moved.win" >/dev/null || fail "$name: the file with a moved view does not verify"
    [ "$(wc -c < "$tmp/moved.win")" -eq "$(wc -c < "$win")" ] || fail "$name: moving a view changed the size"
    "$rebyte" diff --plain "$win" "$tmp/moved.win" > "$tmp/diff.json"
    python3 - "$tmp/diff.json" <<'PY' || fail "$name: diff of the moved view: $(cat "$tmp/diff.json")"
import json, sys
ops = json.load(open(sys.argv[1]))
# the view arrives as an add, or as a copy of an equal view the room already has
assert sorted(op["op"] for op in ops) in (["add", "remove"], ["copy", "remove"]), ops
PY
    "$rebyte" apply -q "$tmp/back.json" "$tmp/moved.win" -o "$tmp/back.win" || { fail "$name: moving the view back"; continue; }
    cmp -s "$win" "$tmp/back.win" || fail "$name: moving the view back does not give the original bytes"
done
[ "$fails" -eq 0 ] && echo "datawin ROOM edits: ok"
[ "$fails" -eq 0 ]
