#!/bin/sh
# STRG is derived from the references (string references are links by text; docs/formats/
# datawin.md, "Links"): a reference renamed to a text STRG lacks appends that text to STRG on
# write, and nothing else changes. On samples/datawin/sample.win and, when ../shared is present, on
# every corpus data.win, one patch replaces GEN8's name and the first sprite's name (where there
# is a sprite) with new texts, and nothing else:
#  1. `rebyte apply` takes it, and the same edit made on the dump and built through the
#     description (`resolve`, `json-patch`, `build`) writes the same bytes;
#  2. the output verifies exactly, and its dump shows the new names;
#  3. `rebyte diff --plain` of input and output is exactly the two replaces (the two new texts
#     the output's STRG gains, in the order their references are written, are the writer's, not
#     the diff's), and the output's dump is the input's with exactly those changes and the texts
#     appended: every other string keeps its place, every other reference its text (the old
#     names stay in STRG);
#  4. the output with an empty patch is byte-exact (the appended strings are now the file's own).
. "$(dirname "$0")/common.sh"
echo '[]' >"$tmp/none.json"
files="$src/samples/datawin/sample.win"
ls "$corpus"/*.win >/dev/null 2>&1 && files="$files $(ls "$corpus"/*.win)"
checked=0

for win in $files; do
    name=$(basename "$win")
    "$rebyte" dump --blobs=base64 "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    python3 - "$tmp/in.json" "$tmp/patch.json" "$tmp/expect.json" "$tmp/ops.json" <<'PY' || { fail "$name: no patch"; continue; }
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = doc["chunks"]
index = {c["id"]: i for i, c in enumerate(chunks)}
strings = chunks[index["STRG"]]["strings"]
def new_text(base):
    text, n = base, 0
    while text in strings:
        n += 1
        text = "%s %d" % (base, n)
    return text
patch, ops, appended = [], [], []
def rename(path, record, text):
    patch.append({"op": "replace", "path": path.replace("/chunks/%d/" % index["GEN8"], "/chunks/[id=GEN8]/", 1)
                  .replace("/chunks/%d/" % index.get("SPRT", -1), "/chunks/[id=SPRT]/", 1), "value": text})
    record["name"] = text
    ops.append({"op": "replace", "path": path, "value": text, "record": path.rsplit("/", 1)[0], "renamed": record})
    appended.append(text)
rename("/chunks/%d/name" % index["GEN8"], chunks[index["GEN8"]], new_text("rebyte renamed game"))
sprites = chunks[index["SPRT"]].get("sprites", []) if "SPRT" in index else []
k = next((i for i, s in enumerate(sprites) if "name" in s), None)
if k is not None:
    rename("/chunks/%d/sprites/%d/name" % (index["SPRT"], k), sprites[k], new_text("spr_rebyte_renamed"))
for text in appended:
    ops.append({"op": "add", "path": "/chunks/%d/strings/%d" % (index["STRG"], len(strings)), "value": text})
    strings.append(text)
json.dump(patch, open(sys.argv[2], "w"))
json.dump(doc, open(sys.argv[3], "w"))
json.dump(ops, open(sys.argv[4], "w"))
PY
    # 1. apply takes it; the edit built from the dump gives the same bytes
    "$rebyte" apply -q "$tmp/patch.json" "$win" -o "$tmp/out.win" 2>"$tmp/err" ||
        { fail "$name: apply: $(cat "$tmp/err")"; continue; }
    "$rebyte" resolve "$tmp/patch.json" "$win" >"$tmp/plain.json" &&
        "$rebyte" json-patch "$tmp/in.json" "$tmp/plain.json" >"$tmp/whole.json" &&
        "$rebyte" build "$tmp/whole.json" -o "$tmp/whole.win" --source "$win" 2>"$tmp/err" ||
        fail "$name: the edit built from the dump: $(cat "$tmp/err")"
    cmp -s "$tmp/out.win" "$tmp/whole.win" || fail "$name: apply and the edit built from the dump wrote different bytes"
    # 2. exact, and the dump shows the new names
    "$rebyte" verify "$tmp/out.win" >"$tmp/verify" 2>&1 && grep -q "^exact" "$tmp/verify" ||
        fail "$name: the output does not verify exactly: $(cat "$tmp/verify")"
    "$rebyte" dump --blobs=base64 "$tmp/out.win" -o "$tmp/out.json" || { fail "$name: dump of the output"; continue; }
    # 3. exactly the renames; the appended strings are the writer's
    "$rebyte" diff --plain "$win" "$tmp/out.win" >"$tmp/diff.json"
    [ $? -eq 1 ] || { fail "$name: diff (files that differ exit 1)"; continue; }
    python3 - "$tmp/expect.json" "$tmp/out.json" "$tmp/ops.json" "$tmp/diff.json" <<'PY' || fail "$name: the output is not the input with exactly the renames"
import json, sys
expect, out, ops, diff = (json.load(open(p)) for p in sys.argv[1:5])
for d in (expect, out):
    d.pop("$source", None)
strings = next(c for c in out["chunks"] if c["id"] == "STRG")["strings"]
for op in ops:
    if op["op"] == "replace":
        assert op["value"] in strings, op
# A rename of a list element's identity (a sprite's name) is spelled by the differ as the element
# removed and the renamed one added in its place; an append as "-" or with its index.
def spelled(diff):
    out, i = [], 0
    while i < len(diff):
        op = diff[i]
        nxt = diff[i + 1] if i + 1 < len(diff) else {}
        if op["op"] == "remove" and nxt.get("op") == "add" and nxt["path"] == op["path"]:
            out.append(("element", op["path"], json.dumps(nxt["value"], sort_keys=True)))
            i += 2
            continue
        path = op["path"].rsplit("/", 1)[0] + "/-" if op["op"] == "add" else op["path"]
        out.append((op["op"], path, json.dumps(op.get("value"), sort_keys=True)))
        i += 1
    return out
got = spelled(diff)
want = spelled([{"op": o["op"], "path": o["path"], "value": o["value"]} for o in ops if o["op"] == "replace"])
assert len(got) == len(want), "diff:\n%s\nexpected:\n%s" % (json.dumps(diff, indent=1), json.dumps(ops, indent=1))
for g, w, o in zip(got, want, ops):
    if g == w:
        continue
    assert o["op"] == "replace" and g == ("element", o["record"], json.dumps(o["renamed"], sort_keys=True)), \
        "diff operation %s, expected %s" % (g[:2], w[:2])
for x, y in zip(expect["chunks"], out["chunks"]):
    assert x == y, "chunk %s differs" % x["id"]
assert expect == out
PY
    # 4. the output is a file like any other: an empty patch gives it back byte for byte
    "$rebyte" apply -q "$tmp/none.json" "$tmp/out.win" -o "$tmp/again.win" && cmp -s "$tmp/out.win" "$tmp/again.win" ||
        fail "$name: the output does not come back byte for byte"
    checked=$((checked + 1))
    echo "$name: $(grep -o '"op"' "$tmp/patch.json" | wc -l | tr -d ' ') renamed, their texts appended to STRG"
done
[ "$checked" -gt 0 ] || fail "no file checked"
[ "$fails" -eq 0 ] && echo "datawin STRG derived from references: ok ($checked files)"
[ "$fails" -eq 0 ]
