#!/bin/sh
# UILR (GameMaker 2024.13+ UI layers, docs/formats/datawin.md "UILR"): no corpus file has UI nodes, so
# tests/datawin/fixtures/uilr.json is the sample game (samples/datawin/sample.json) with a UILR chunk holding
# one UI layer whose children are a flex panel (with a sprite and a text item) and an effect layer
# (with one property). Built, it must verify, re-read to the same UILR model (UILR typed, every node
# pointer landing where its data is), dump -> build exactly, and take a patch that edits node
# properties (a flex panel's width and direction, a sprite's position, a text item's text, a new
# STRG string), after which only UILR (and STRG) differ.
. "$(dirname "$0")/common.sh"

fixture="$src/tests/datawin/fixtures/uilr.json"
built_fixture "$fixture" uilr || exit 1

panel=/chunks/[id=UILR]/nodes/0/children/0
cat > "$tmp/patch.json" <<EOF
[{"op": "replace", "path": "$panel/width/value", "value": 75.0},
 {"op": "replace", "path": "$panel/flexDirection", "value": 3},
 {"op": "replace", "path": "$panel/children/0/x", "value": -24},
 {"op": "add", "path": "/chunks/[id=STRG]/strings/-", "value": "edited UI text"},
 {"op": "replace", "path": "$panel/children/1/text", "value": "edited UI text"}]
EOF
patched_file "$tmp/patch.json" "$tmp/uilr.win" edit
python3 - "$fixture" "$tmp/uilr.json" "$tmp/edit.json" <<'PY' || fail "models"
import sys
from fixture_models import check_fixture_edit
def edits(uilr):
    panel = uilr["nodes"][0]["children"][0]
    panel["width"]["value"] = 75.0
    panel["flexDirection"] = 3
    panel["children"][0]["x"] = -24
    panel["children"][1]["text"] = "edited UI text"
check_fixture_edit("UILR", *sys.argv[1:4], edits)
PY
# diff exits 1 when the files differ, as they must here; anything else is a failure
diff_rc=0
"$rebyte" diff --plain "$tmp/uilr.win" "$tmp/edit.win" > "$tmp/diff.json" || diff_rc=$?
[ "$diff_rc" -eq 1 ] || fail "rebyte diff exited $diff_rc (1: the files differ)"
python3 - "$tmp/uilr.json" "$tmp/diff.json" <<'PY' || fail "diff touches more than UILR and STRG: $(cat "$tmp/diff.json")"
import json, sys
ids = [c["id"] for c in json.load(open(sys.argv[1]))["chunks"]]
allowed = {"/chunks/%d/" % i for i, id in enumerate(ids) if id in ("UILR", "STRG")}
ops = json.load(open(sys.argv[2]))
assert ops, "no differences"
for op in ops:
    assert any(op["path"].startswith(prefix) for prefix in allowed), op
PY
[ "$fails" -eq 0 ] && echo "datawin UILR: ok"
[ "$fails" -eq 0 ]
