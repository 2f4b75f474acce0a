#!/bin/sh
# Game rules (issue 19): every rule a format declares is broken once by a patch; apply refuses it
# naming the rule and the path and writes nothing, --force writes it and says so, and `check`
# reports it on the written file. A file that already breaks a rule can still be edited elsewhere.
set -u
rebyte=${REBYTE:?}
src=${REBYTE_SOURCE:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

map=$src/samples/gbx/sample.Map.Gbx
blocks='/body/chunks/[id=0x0304301F]'
medals='/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x0305B004]'

# breaks RULE FILE PATCH: refused naming the rule, nothing written; forced, written, warned, checked
breaks() {
    rule=$1 file=$2
    printf '%s\n' "$3" >"$tmp/p.json"
    rm -f "$tmp/out"
    "$rebyte" apply "$tmp/p.json" "$file" -o "$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] || fail "$rule: apply exit $rc, not 2"
    grep -q "game rule $rule \(broken \)\{0,1\}at /" "$tmp/err" || fail "$rule: the refusal does not name the rule: $(cat "$tmp/err")"
    [ -e "$tmp/out" ] && fail "$rule: a refused result was written"
    "$rebyte" apply --force "$tmp/p.json" "$file" -o "$tmp/out" 2>"$tmp/err" || fail "$rule: --force did not write"
    grep -q "game rule $rule broken at .*forced" "$tmp/err" || fail "$rule: --force does not say what it kept"
    "$rebyte" check "$tmp/out" >"$tmp/check"; rc=$?
    [ $rc -eq 1 ] || fail "$rule: check exit $rc on the forced file"
    grep -q ": $rule: /" "$tmp/check" || fail "$rule: check does not report it: $(cat "$tmp/check")"
}

"$rebyte" check "$map" >/dev/null || fail "the sample map breaks a rule"
"$rebyte" check --rules | grep -q "^gbx  *block-direction" || fail "check --rules does not list block-direction"

breaks block-direction "$map" "[{\"op\":\"replace\",\"path\":\"$blocks/blocks/0/direction\",\"value\":7}]"
breaks block-inside-map "$map" "[{\"op\":\"replace\",\"path\":\"$blocks/blocks/1/coord/0\",\"value\":49}]"
breaks medals-ordered "$map" "[{\"op\":\"replace\",\"path\":\"$medals/goldTime\",\"value\":29000}]"
breaks medals-ordered "$map" "[{\"op\":\"replace\",\"path\":\"$medals/authorTime\",\"value\":-5}]"
# the items chunk cannot even be written out of step: refused, also when forced
printf '%s\n' '[{"op":"remove","path":"/body/chunks/[id=0x03043040]/snappedOnIndexes/0"}]' >"$tmp/p.json"
"$rebyte" apply "$tmp/p.json" "$map" -o "$tmp/out" 2>"$tmp/err" && fail "items-snapping: accepted"
grep -q "game rule items-snapping at /" "$tmp/err" || fail "items-snapping: the refusal does not name the rule"
"$rebyte" apply --force "$tmp/p.json" "$map" -o "$tmp/out" 2>/dev/null && fail "items-snapping: written when forced"
breaks decoration-known "$map" "[{\"op\":\"replace\",\"path\":\"$blocks/decoration/id\",\"value\":\"Sunset\"}]"

# a rule the original already breaks does not stop an edit elsewhere
printf '%s\n' "[{\"op\":\"replace\",\"path\":\"$blocks/blocks/0/direction\",\"value\":9}]" >"$tmp/p.json"
"$rebyte" apply -q --force "$tmp/p.json" "$map" -o "$tmp/broken.Gbx" 2>/dev/null || fail "forced write failed"
"$rebyte" apply -q "$src/samples/gbx/cookbook/rename.patch.json" "$tmp/broken.Gbx" -o "$tmp/renamed.Gbx" ||
    fail "an edit of a file that already breaks a rule was refused"

# data.win (docs/formats/gamemaker.md "Game rules"): the sample has no ROOM chunk, so the room
# rule's patch adds one (a GMS2 2.0 room of width 0)
win=$src/samples/gm/sample.win
"$rebyte" check "$win" >/dev/null || fail "the sample data.win breaks a rule"
"$rebyte" check --rules | grep -q "^datawin  *room-size-positive" || fail "check --rules does not list room-size-positive"
breaks references-in-range "$win" '[{"op":"replace","path":"/chunks/[id=TPAG]/items/0/texturePage","value":3}]'
room='{"id":"ROOM","roomLayers":1,"roomSequences":0,"roomCreationOrder":0,"instanceImageSpeed":1,"instancePreCreate":1,
"layerEffects":0,"assetNineSlices":0,"assetParticleSystems":0,"assetTextItems":0,"gm2024_14":0,"tilesCompressed":0,
"tilesAligned":0,"rooms":[{"name":"rZero","width":0,"height":512,"speed":0,"persistent":false,
"backgroundColor":"0x00000000","drawBackgroundColor":false,"creationCodeId":-1,"flags":"0x00020000","world":false,
"top":0,"left":0,"right":0,"bottom":0,"gravityX":0.0,"gravityY":10.0,"metersPerPixel":0.1,"backgrounds":[],"views":[],
"instances":[],"tiles":[],"layers":[]}]}'
breaks room-size-positive "$win" "[{\"op\":\"add\",\"path\":\"/chunks/1\",\"value\":$room}]"
# every real game checks clean: a rule one of them breaks is wrong, not the game
corpus=${REBYTE_SHARED:-$src/../shared}/corpus/datawin
if [ -d "$corpus" ]; then
    for f in "$corpus"/*.win; do
        "$rebyte" check "$f" >"$tmp/check" || fail "$(basename "$f") breaks a rule: $(head -3 "$tmp/check")"
    done
fi

# streamer maps (docs/formats/streamer.md "Game rules")
for m in "$src"/samples/streamer/*.map; do
    "$rebyte" check "$m" >/dev/null || fail "$(basename "$m") breaks a rule"
done
park=$src/samples/streamer/stunt-park.map
breaks object-ids-in-range "$park" '[{"op":"replace","path":"/groups/0/chunks/3/modelId","value":20000}]'
breaks object-ids-in-range "$park" '[{"op":"replace","path":"/groups/1/chunks/1/worlds/0","value":-2}]'
breaks object-ids-in-range "$src/samples/streamer/safehouse.map" \
    '[{"op":"replace","path":"/groups/0/chunks/5/players/3","value":1000}]'

[ $fails -eq 0 ] && echo "game rules: ok"
exit $fails
