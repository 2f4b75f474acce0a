#!/bin/sh
# The law of diff after a mass edit (docs/usage.md "Diffs"): every block of the sample map raised
# by one ("each"), so that every block's keys (name and coordinates) change at once, diffed by
# position and by identity, re-applies to the sample's bytes exactly.
. "$(dirname "$0")/../lib.sh"
A=$src/samples/gbx/sample.Map.Gbx
"$rebyte" apply -q "$src/samples/gbx/cookbook/raise-blocks.patch.json" "$A" -o "$tmp/B.Gbx" 2>/dev/null ||
    fail "raising the blocks of $A"
cmp -s "$A" "$tmp/B.Gbx" && fail "raising the blocks of $A changed nothing"
for mode in --plain --by-identity; do
    "$rebyte" diff $mode "$A" "$tmp/B.Gbx" > "$tmp/d.json"
    [ $? -le 1 ] || fail "diff $mode failed"
    "$rebyte" apply -q --force "$tmp/d.json" "$A" -o "$tmp/again.Gbx" || fail "diff $mode does not apply"
    cmp -s "$tmp/again.Gbx" "$tmp/B.Gbx" || fail "diff $mode does not re-apply to the raised map's bytes"
done
finish "the diffs of the raised sample map"
