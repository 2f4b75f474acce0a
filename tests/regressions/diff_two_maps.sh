#!/bin/sh
# Found 2026-12-07: `diff` of two different TM2020 maps (Summer 2021 - 25 -> Winter 2021 - 15)
# failed with "internal: the diff does not turn A into B". The diff asked the format which lists
# follow a list edit once per kind of edit and at most 1024 times in all: the thousands of block
# edits spent the budget before the item list was reached, and a removed free block was taken
# for any block, so the snapping entries (0x03043040 snappedOnIndexes) and the free block
# positions (0x0304305F) were removed by the patch and again by apply. Such a pair must give a
# patch that turns A into B's bytes, or a refusal that names its reason (here: the map's
# validation ghost, a race record apply never writes changed), never "internal".
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
a="$corpus/8c0fbe56_Summer_2021_-_25.Map.Gbx" b="$corpus/b9ea06d1_Winter_2021_-_15.Map.Gbx"
[ -f "$a" ] && [ -f "$b" ] || { echo "SKIP: the two maps are not in $corpus"; exit 77; }
"$rebyte" diff "$a" "$b" > "$tmp/patch.json" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ]; then
    "$rebyte" apply --patch "$tmp/patch.json" "$a" -o "$tmp/out.Gbx" > /dev/null 2>&1 || fail "apply refuses the diff"
    cmp -s "$tmp/out.Gbx" "$b" || fail "apply(diff(A, B), A) is not B's bytes"
elif [ $rc -eq 2 ]; then
    grep -q "internal" "$tmp/err" && fail "$(cat "$tmp/err")"
    grep -q "raceValidateGhost is a race record" "$tmp/err" || fail "the refusal does not name the ghost: $(cat "$tmp/err")"
else
    fail "diff exit $rc: $(cat "$tmp/err")"
fi
finish "diff of two different TM2020 maps"
