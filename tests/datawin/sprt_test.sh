#!/bin/sh
# SPRT, BGND and FONT edits on every corpus data.win (docs/formats/datawin.md "SPRT", "BGND",
# "FONT"): the first sprite is renamed (its name reference names a string added to STRG) and its
# origin moves; where a sprite has an embedded sequence or a nine-slice, those change too; the first
# background is renamed and the first font's first glyph shifts. The output must verify (read ->
# write exact), re-read with the three chunks typed, and its dump must equal the input's dump with
# exactly those changes.
# A sprite whose size changes without new collision masks is refused (the masks' size follows it).
. "$(dirname "$0")/common.sh"
require_corpus
edited=0

for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    python3 - "$tmp/in.json" "$tmp/patch.json" "$tmp/expect.json" "$tmp/bad.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = doc["chunks"] if "chunks" in doc else doc["root"]["chunks"]
by_id = {c["id"]: c for c in chunks}
for cid in ("SPRT", "BGND", "FONT"):
    if cid in by_id and "data" in by_id[cid]:
        sys.exit("%s is not typed" % cid)
ops, bad = [], []
def op(path, value, target, key):
    ops.append({"op": "replace", "path": path, "value": value})
    target[key] = value
def new_string(text):
    ops.append({"op": "add", "path": "/chunks/[id=STRG]/strings/-", "value": text})
    by_id["STRG"]["strings"].append(text)
def first(items):
    return next(((i, x) for i, x in enumerate(items) if not x.get("removed")), (None, None))
i, sprite = first(by_id["SPRT"]["sprites"])
if sprite is not None:
    new_string("spr_renamed_by_sprt_test")
    p = "/chunks/[id=SPRT]/sprites/%d/" % i
    op(p + "name", "spr_renamed_by_sprt_test", sprite, "name")
    op(p + "originX", sprite["originX"] + 3, sprite, "originX")
    op(p + "originY", sprite["originY"] - 2, sprite, "originY")
    if "sequence" in sprite:
        op(p + "sequence/originX", sprite["originX"], sprite["sequence"], "originX")
    if sprite.get("masks"):
        bad.append({"op": "replace", "path": p + "width", "value": sprite["width"] + 8})
for i, sprite in enumerate(by_id["SPRT"]["sprites"]):
    if "nineSlice" in sprite:
        nine = sprite["nineSlice"]
        op("/chunks/[id=SPRT]/sprites/%d/nineSlice/left" % i, nine["left"] + 1, nine, "left")
        break
i, background = first(by_id["BGND"]["backgrounds"])
if background is not None:
    new_string("bg_renamed_by_sprt_test")
    op("/chunks/[id=BGND]/backgrounds/%d/name" % i, "bg_renamed_by_sprt_test", background, "name")
i, font = first(by_id["FONT"]["fonts"])
if font is not None and font["glyphs"]:
    glyph = font["glyphs"][0]
    op("/chunks/[id=FONT]/fonts/%d/glyphs/0/shift" % i, glyph["shift"] + 1, glyph, "shift")
json.dump(ops, open(sys.argv[2], "w"))
json.dump(doc, open(sys.argv[3], "w"))
json.dump(bad, open(sys.argv[4], "w"))
PY
    [ $? -eq 0 ] || { fail "$name: SPRT/BGND/FONT typed"; continue; }
    [ "$(cat "$tmp/patch.json")" = "[]" ] && continue
    edited=$((edited + 1))
    "$rebyte" apply -q "$tmp/patch.json" "$win" -o "$tmp/out.win" || { fail "$name: apply"; continue; }
    "$rebyte" verify "$tmp/out.win" >/dev/null || fail "$name: output does not verify"
    "$rebyte" dump "$tmp/out.win" -o "$tmp/out.json" || { fail "$name: dump output"; continue; }
    python3 - "$tmp/expect.json" "$tmp/out.json" <<'PY' || fail "$name: the output is not the input with the edits"
import json, sys
expect, got = (json.load(open(p)) for p in sys.argv[1:3])
def chunks(doc):
    return doc["chunks"] if "chunks" in doc else doc["root"]["chunks"]
def content(node):  # large blobs are named by where they are in the file: compare what they hold
    if isinstance(node, dict):
        if "$blob" in node:
            return (node["$blob"]["size"], node["$blob"]["crc32"])
        return {k: content(v) for k, v in node.items()}
    if isinstance(node, list):
        return [content(v) for v in node]
    return node
expect, got = content(expect), content(got)
for a, b in zip(chunks(expect), chunks(got)):
    if a != b:
        sys.exit("chunk %s differs" % a["id"])
if len(chunks(expect)) != len(chunks(got)):
    sys.exit("chunk count differs")
PY
    "$rebyte" diff --plain "$win" "$tmp/out.win" > "$tmp/diff.json"
    grep -q '"op"' "$tmp/diff.json" || fail "$name: diff shows no change"
    if [ "$(cat "$tmp/bad.json")" != "[]" ]; then
        "$rebyte" apply -q "$tmp/bad.json" "$win" -o "$tmp/bad.win" 2>"$tmp/err" && fail "$name: mask size mismatch accepted"
        grep -q "mask" "$tmp/err" || fail "$name: refusal message: $(cat "$tmp/err")"
    fi
done
[ "$edited" -ge 4 ] || fail "only $edited corpus files had a sprite, background or font to edit"
[ "$fails" -eq 0 ] && echo "datawin SPRT/BGND/FONT edits: ok ($edited files)"
[ "$fails" -eq 0 ]
