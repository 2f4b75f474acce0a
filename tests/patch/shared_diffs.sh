#!/bin/sh
# Diffs safe to share (docs/usage.md "Portable patches: identity, fingerprints, stacking"): the
# default diff of one TM2020 map (renamed, a block removed) applied to 40 other maps of the corpus
# and the public test world, of every era, is refused every time and writes nothing; the diff by
# identity applies only where every value it pins holds, and then renames the map. A removed
# item is pinned by the digest of its content.
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
A=$corpus/b9ea06d1_Winter_2021_-_15.Map.Gbx
[ -f "$A" ] || { echo "SKIP: $A is absent"; exit 77; }
L='/body/chunks/[id=0x0304301F]'
I='/body/chunks/[id=0x03043040]/anchoredObjects'
# edits that a diff by position would carry over to a map of the same chunk layout (removing an
# unrelated block there)
printf '[{"op":"replace","path":"%s/mapName","value":"Shared"},{"op":"remove","path":"%s/blocks/1"}]' "$L" "$L" > "$tmp/edit.json"
"$rebyte" apply -q "$tmp/edit.json" "$A" -o "$tmp/B.Gbx" || fail "editing $A"
"$rebyte" diff "$A" "$tmp/B.Gbx" > "$tmp/positional.json"
"$rebyte" diff --by-identity "$A" "$tmp/B.Gbx" > "$tmp/identity.json"
"$rebyte" apply -q "$tmp/positional.json" "$A" -o "$tmp/again.Gbx" && cmp -s "$tmp/again.Gbx" "$tmp/B.Gbx" ||
    fail "the default diff does not re-apply to its base"

# an item copied and another removed: the removed item (its record and parallel arrays) is pinned
# by the digest of its content, which resolve checks as apply does
printf '[{"op":"copy","from":"%s/0","path":"%s/-"},{"op":"remove","path":"%s/5"}]' "$I" "$I" "$I" > "$tmp/items.json"
"$rebyte" apply -q "$tmp/items.json" "$A" -o "$tmp/C.Gbx" || fail "copying and removing items of $A"
"$rebyte" diff "$A" "$tmp/C.Gbx" > "$tmp/items-diff.json"
grep -q '"\$digest"' "$tmp/items-diff.json" || fail "the removed item is not pinned by digest: $(head -c 2000 "$tmp/items-diff.json")"
"$rebyte" resolve "$tmp/items-diff.json" "$A" >/dev/null 2>"$tmp/err" || fail "resolve of the pinned diff: $(cat "$tmp/err")"
"$rebyte" apply -q "$tmp/items-diff.json" "$A" -o "$tmp/again.Gbx" && cmp -s "$tmp/again.Gbx" "$tmp/C.Gbx" ||
    fail "the item diff does not re-apply to its base"

# 20 maps of the corpus (ManiaPlanet and TM2020 first), 20 of the public test world
ls "$corpus"/*.Map.Gbx "$corpus"/*.Challenge.Gbx 2>/dev/null | grep -vF "$A" | head -20 > "$tmp/others"
ls "$shared"/public/maps/*.Gbx 2>/dev/null | head -20 >> "$tmp/others"
tried=0 refused=0 identity_applied=0
while IFS= read -r other; do
    tried=$((tried + 1))
    out=$tmp/out-$tried.Gbx
    "$rebyte" apply "$tmp/positional.json" "$other" -o "$out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -e "$out" ] && grep -q "by position: it applies to the file it was made from only" "$tmp/err"; then
        refused=$((refused + 1))
    else
        fail "the default diff of $A applied to $other (exit $rc): $(tail -2 "$tmp/err")"
    fi
    rm -f "$out"
    if "$rebyte" apply -q "$tmp/identity.json" "$other" -o "$out" 2>"$tmp/err"; then
        identity_applied=$((identity_applied + 1))
        "$rebyte" info --json "$out" | grep -q '"name":"Shared"' || fail "the identity diff applied to $other without renaming it"
    else
        [ ! -e "$out" ] || fail "output written by a refused identity diff on $other"
    fi
    rm -f "$out"
done < "$tmp/others"
[ "$tried" -eq 40 ] || fail "40 other maps expected, $tried found"
echo "default diff refused on $refused of $tried other maps; by identity applied on $identity_applied"
finish "shared diffs"
