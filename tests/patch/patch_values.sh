#!/bin/sh
# Values as shown and ids of every era (docs/usage.md "Paths and selectors"):
# a selector or a test written with the dump's own spelling of a float holds, another f32 does
# not; a refusal says what the file has in the dump's spelling; a selector on a current chunk id
# finds the legacy id every TM 2003-2006 map of the corpus stores, and a selector matching nothing
# names every spelling it tried; a diff's added block spells an id stored the file's own way as
# the dump does ({"$id": ..., "refIndex": ...}), so applied it gives the same bytes.
. "$(dirname "$0")/../lib.sh"
sample=$src/samples/gbx/sample.Map.Gbx
I='/body/chunks/[id=0x03043040]/anchoredObjects'
# an item placed at an f32 whose shortest spelling is 1053.7823
cat >"$tmp/place.json" <<P
[{"op": "replace", "path": "$I/0/chunks/0/absolutePositionInMap", "value": [1157.3325, 235.0, 1053.7823]}]
P
"$rebyte" apply -q "$tmp/place.json" "$sample" -o "$tmp/placed.Gbx" || fail "placing the item"
"$rebyte" dump "$tmp/placed.Gbx" | grep -q '\[1157.3325, 235.0, 1053.7823\]' || fail "the dump does not show the position as written"
cat >"$tmp/select.json" <<P
[{"op": "test", "path": "$I/[chunks/0/absolutePositionInMap/2=1053.7823]/chunks/0/absolutePositionInMap", "value": [1157.3325, 235.0, 1053.7823]},
 {"op": "test", "path": "$I/[chunks/0/absolutePositionInMap/2=1053.7823000000001]/chunks/0/absolutePositionInMap/0", "value": 1157.3325},
 {"op": "replace", "path": "$I/[chunks/0/absolutePositionInMap/0=1157.3325,chunks/0/absolutePositionInMap/2=1053.7823]/chunks/0/scale", "value": 2.0}]
P
"$rebyte" apply -q "$tmp/select.json" "$tmp/placed.Gbx" -o "$tmp/scaled.Gbx" 2>"$tmp/err" || fail "the dump's spelling does not select the item: $(cat "$tmp/err")"
cat >"$tmp/other.json" <<P
[{"op": "replace", "path": "$I/[chunks/0/absolutePositionInMap/2=1053.78]/chunks/0/scale", "value": 2.0}]
P
"$rebyte" apply "$tmp/other.json" "$tmp/placed.Gbx" -o "$tmp/x.Gbx" 2>"$tmp/err" && fail "another f32 selected the item"
grep -q "matches 0 elements" "$tmp/err" || fail "no match not said: $(cat "$tmp/err")"
cat >"$tmp/test.json" <<P
[{"op": "test", "path": "$I/0/chunks/0/absolutePositionInMap/2", "value": 1053.78}]
P
"$rebyte" apply "$tmp/test.json" "$tmp/placed.Gbx" -o "$tmp/x.Gbx" 2>"$tmp/err" && fail "a test of another f32 held"
grep -q "is 1053.7823, not 1053.78" "$tmp/err" || fail "the refusal does not spell the values as the dump does: $(cat "$tmp/err")"
[ -e "$tmp/x.Gbx" ] && fail "a refused patch wrote its output"

# an id stored the file's own way: a block refers to the first of two definitions of its name,
# not to the latest one the writer would derive; diff's `add` keeps that, so apply gives B's bytes
B='/body/chunks/[id=0x0304301F]/blocks'
cat >"$tmp/redefine.json" <<P
[{"op": "add", "path": "$B/-", "value": {"name": {"\$id": "StadiumRoadMainStraight", "redefined": true}, "direction": 0, "coord": [1, 2, 3], "flags": "0x00001000"}}]
P
cat >"$tmp/first.json" <<P
[{"op": "add", "path": "$B/-", "value": {"name": {"\$id": "StadiumRoadMainStraight", "refIndex": 9}, "direction": 0, "coord": [2, 2, 3], "flags": "0x00001000"}}]
P
"$rebyte" apply -q "$tmp/redefine.json" "$sample" -o "$tmp/idA.Gbx" || fail "redefining a block name"
"$rebyte" apply -q "$tmp/first.json" "$tmp/idA.Gbx" -o "$tmp/idB.Gbx" || fail "adding a block naming the first definition"
"$rebyte" dump "$tmp/idB.Gbx" | grep -q '"refIndex": 9' || fail "the dump does not show the stored reference"
for mode in "" --by-identity; do
    "$rebyte" diff $mode --plain "$tmp/idA.Gbx" "$tmp/idB.Gbx" >"$tmp/id-diff.json"
    grep -q '"refIndex": 9' "$tmp/id-diff.json" || fail "diff $mode: the added block's id lost how it is stored: $(cat "$tmp/id-diff.json")"
    "$rebyte" apply -q "$tmp/id-diff.json" "$tmp/idA.Gbx" -o "$tmp/idC.Gbx" || fail "diff $mode does not apply"
    cmp -s "$tmp/idB.Gbx" "$tmp/idC.Gbx" || fail "diff $mode applied gives other bytes than B"
    rm -f "$tmp/idC.Gbx"
done

# ids of every era, on the corpus's TM 2003-2006 maps (class 0x24003000)
corpus=${REBYTE_SHARED:-}/corpus/gbx
legacy=0
if [ -d "$corpus" ]; then
    for map in "$corpus"/*.Challenge.Gbx; do
        "$rebyte" dump "$map" >"$tmp/dump.json" 2>/dev/null || continue
        grep -q '"classId": "0x24003000"' "$tmp/dump.json" || continue
        # every body chunk the dump shows as 0x24003xxx, named by its current id 0x03043xxx
        ids=$(sed -n 's/^        "id": "0x24003\([0-9A-F]*\)",$/\1/p' "$tmp/dump.json" | sort -u)
        [ -n "$ids" ] || continue
        printf '[' >"$tmp/era.json"
        sep=
        for id in $ids; do
            printf '%s{"op": "test", "path": "/body/chunks/[id=0x03043%s]/id", "value": "0x24003%s"}' "$sep" "$id" "$id" >>"$tmp/era.json"
            sep=,
        done
        printf ']' >>"$tmp/era.json"
        if "$rebyte" apply -q "$tmp/era.json" "$map" -o "$tmp/era.Gbx" 2>"$tmp/err"; then
            legacy=$((legacy + 1))
        else
            fail "$(basename "$map"): a current id does not find the legacy one: $(cat "$tmp/err")"
        fi
        rm -f "$tmp/era.Gbx"
    done
    cat >"$tmp/missing.json" <<P
[{"op": "replace", "path": "/body/chunks/[id=0x0304301F]/mapName", "value": "x"}]
P
    map=$(grep -l '' "$corpus"/*Track6.Challenge.Gbx 2>/dev/null | head -n 1)
    if [ -n "$map" ]; then
        "$rebyte" apply "$tmp/missing.json" "$map" -o "$tmp/x.Gbx" 2>"$tmp/err" && fail "a chunk the map lacks was found"
        grep -q "ids of every era match: 0x0304301F, 0x2400301F" "$tmp/err" || fail "the legacy spelling is not named: $(cat "$tmp/err")"
    fi
    [ "$legacy" -gt 0 ] || fail "no TM 2003-2006 map in $corpus took a selector written with current ids"
fi
echo "values as shown: sample checked; ids of every era: $legacy legacy maps"
[ "$fails" -eq 0 ]
