#!/bin/sh
# WTD terrain edits through the command line (docs/formats/tres.md "WTD (wtd)"): a changed
# coefficient or root coefficient writes, verifies and differs from the original in exactly that
# value (`rebyte diff`); a node put where the tree order does not have it is refused with its
# place and nothing is written.
. "$(dirname "$0")/../lib.sh"
samples=${REBYTE_SOURCE:?}/samples/tres
pv=${REBYTE_SHARED:-../shared}/corpus/tres/pv.wtd

# edit NAME INPUT PATCH_TEXT: apply, verify, one operation in the diff (nodes matched by their
# square), and it changes the patched field
edit() {
    printf '%s\n' "$3" >"$tmp/$1.json"
    "$rebyte" apply "$tmp/$1.json" "$2" -o "$tmp/$1.wtd" 2>"$tmp/err" || { fail "$1: $(cat "$tmp/err")"; return; }
    "$rebyte" verify -q "$tmp/$1.wtd" >/dev/null && "$rebyte" verify -q --reencode "$tmp/$1.wtd" >/dev/null ||
        fail "$1: the result does not verify"
    "$rebyte" diff --by-identity "$2" "$tmp/$1.wtd" >"$tmp/$1.diff"
    [ "$(grep -c '"op": "\(replace\|add\|remove\|move\|copy\)"' "$tmp/$1.diff")" -eq 1 ] ||
        fail "$1: the diff is not one change: $(cat "$tmp/$1.diff")"
    key=$(sed -n 's/.*"path": "[^"]*\/\([A-Za-z]*\)".*/\1/p' "$tmp/$1.json")
    [ -z "$key" ] || grep -q "\"path\": \"[^\"]*/$key\"" "$tmp/$1.diff" || fail "$1: the diff does not change $key"
}

edit hill-root "$samples/hill.wtd" '[{"op": "replace", "path": "/terrain/rootCoefficient", "value": 500}]'
edit hill-node "$samples/hill.wtd" '[{"op": "replace", "path": "/terrain/nodes/3/leftMid", "value": -25}]'
# a descendant of node 1 (its bottom-left quarter) listed after node 2, whose branch it is not in
printf '%s\n' '[{"op": "add", "path": "/terrain/nodes/3", "value": {"x": 0, "y": 0, "size": 16, "bottomMid": 0, "centre": 9, "leftMid": 0}}]' >"$tmp/misplaced.json"
if "$rebyte" apply "$tmp/misplaced.json" "$samples/hill.wtd" -o "$tmp/misplaced.wtd" 2>"$tmp/err"; then
    fail "a misplaced node was written"
else
    grep -q "node 3 (x 0, y 0, size 16) is not where the tree puts it" "$tmp/err" || fail "misplaced node: $(cat "$tmp/err")"
    [ -e "$tmp/misplaced.wtd" ] && fail "a refused edit left an output file"
fi
# the same node where the tree order has it: right after its parent
edit hill-add "$samples/hill.wtd" '[{"op": "add", "path": "/terrain/nodes/2", "value": {"x": 0, "y": 0, "size": 16, "bottomMid": 0, "centre": 9, "leftMid": 0}}]'

if [ -f "$pv" ]; then
    edit pv-one-field "$pv" "$(cat "$samples/one-field-wtd.patch.json")"
else
    echo "$pv is absent: the pv.wtd edit did not run"
fi
[ "$fails" -eq 0 ] && echo "wtd edits: all checks passed"
[ "$fails" -eq 0 ]
