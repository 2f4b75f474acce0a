#!/bin/sh
# Game rules: every rule a format declares is broken once by a patch; apply refuses it
# naming the rule and the path and writes nothing, --force writes it and says so, and `check`
# reports it on the written file. A file that already breaks a rule can still be edited elsewhere.
. "$(dirname "$0")/../lib.sh"

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
breaks medals-ordered "$map" "[{\"op\":\"replace\",\"path\":\"$medals/bronzeTime\",\"value\":1000}]"
breaks medals-ordered "$map" "[{\"op\":\"replace\",\"path\":\"$medals/authorTime\",\"value\":-5}]"
# a second block data chunk: the header's copies would come from either
breaks copied-chunks-once "$map" "[{\"op\":\"copy\",\"from\":\"$blocks\",\"path\":\"/body/chunks/-\"}]"
# the items chunk cannot even be written out of step: refused, also when forced
printf '%s\n' '[{"op":"remove","path":"/body/chunks/[id=0x03043040]/snappedOnIndexes/0"}]' >"$tmp/p.json"
"$rebyte" apply "$tmp/p.json" "$map" -o "$tmp/out" 2>"$tmp/err" && fail "items-snapping: accepted"
grep -q "game rule items-snapping at /" "$tmp/err" || fail "items-snapping: the refusal does not name the rule"
"$rebyte" apply --force "$tmp/p.json" "$map" -o "$tmp/out" 2>/dev/null && fail "items-snapping: written when forced"
# warnings (core/doc/rules.h): what no real file was seen doing is written, with the warning, and
# `check` reports it without failing
warns() {
    rule=$1 file=$2
    printf '%s\n' "$3" >"$tmp/p.json"
    "$rebyte" apply "$tmp/p.json" "$file" -o "$tmp/out" 2>"$tmp/err" || fail "$rule: a warning refused the write: $(cat "$tmp/err")"
    grep -q "game rule $rule (warning) at /" "$tmp/err" || fail "$rule: apply does not warn: $(cat "$tmp/err")"
    "$rebyte" check "$tmp/out" >"$tmp/check" || fail "$rule: check fails on a warning"
    grep -q ": $rule (warning): /" "$tmp/check" || fail "$rule: check does not report the warning: $(cat "$tmp/check")"
    grep -q "ok (1 warning)" "$tmp/check" || fail "$rule: check does not count the warning: $(cat "$tmp/check")"
}
warns decoration-known "$map" "[{\"op\":\"replace\",\"path\":\"$blocks/decoration/id\",\"value\":\"Moonlight\"}]"
grep -q '"Moonlight" is no decoration a real TM2020 Stadium map was seen using (the list: rebyte check --rules' "$tmp/check" ||
    fail "decoration-known: the warning does not name the value and where the list is: $(cat "$tmp/check")"
# decorations real maps use are accepted on any map of their environment (SnowD5 and
# 20x60Sunrise); the corpus's SnowC5 is a Sunrise-era Snow (Alpine) map
snow=$(ls "${REBYTE_SHARED:-$src/../shared}"/corpus/gbx/*_snowC5.Challenge.Gbx 2>/dev/null | head -1)
for d in 30x30 20x60 20x60Sunrise 20x60Sunset 64x64Day Sunset; do
    [ -n "$snow" ] || { echo "corpus SnowC5 not found: the decoration list is not tried"; break; }
    printf '%s\n' "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x2400301F]/decoration/id\",\"value\":\"$d\"}]" >"$tmp/p.json"
    "$rebyte" apply "$tmp/p.json" "$snow" -o "$tmp/out" 2>"$tmp/err" || fail "decoration $d refused: $(cat "$tmp/err")"
    grep -q "decoration-known" "$tmp/err" && fail "decoration $d warned: $(cat "$tmp/err")"
done
# an author time slower than gold (TMU's official IslandA1: 16200 ms against 16170 ms) is a warning
warns medals-ordered "$map" "[{\"op\":\"replace\",\"path\":\"$medals/authorTime\",\"value\":999999}]"
# no stale copy in silence: a header XML attribute a patch leaves disagreeing with the body is a
# header-copies warning in apply and in check (the corpus's TM2020 map: its mood is derived)
tm2020=$(ls "${REBYTE_SHARED:-$src/../shared}"/corpus/gbx/*_GBX-NET_2_CGameCtnChallenge_TM2020_001.Map.Gbx 2>/dev/null | head -1)
if [ -n "$tm2020" ]; then
    # a file whose XML says "Sunset" where the body says Day (built from its edited dump)
    "$rebyte" dump "$tm2020" -o "$tmp/tm.json" --blobs=base64 2>/dev/null
    python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
t = [c for c in m["headerChunks"] if "xmlTemplate" in c][0]["xmlTemplate"]
t[11] = "Sunset"
json.dump(m, open(sys.argv[1], "w"))' "$tmp/tm.json"
    "$rebyte" build "$tmp/tm.json" -o "$tmp/stale.Gbx" 2>"$tmp/err" || fail "header-copies: the stale file was not built: $(cat "$tmp/err")"
    # apply warns when its result leaves the copy (a rename elsewhere), and check reports it
    warns header-copies "$tmp/stale.Gbx" '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/mapName","value":"Renamed"}]'
    grep -q "the header XML's mood=\"SunsetScreen16x9\" is not what the body gives (\"Day\")" "$tmp/check" ||
        fail "header-copies: the warning does not give both texts: $(cat "$tmp/check")"
else
    echo "corpus TM2020 map not found: the stale XML copy is not tried"
fi
"$rebyte" check --rules | grep -q "^gbx  *decoration-known  *warning" || fail "check --rules does not give decoration-known's kind"
"$rebyte" check --rules --json | python3 -c '
import json, sys
rules = [json.loads(l) for l in sys.stdin]
deco = [r for r in rules if r["rule"] == "decoration-known"][0]
assert deco["kind"] == "warning" and "20x60Sunrise" in deco["data"]["Snow (1)"], deco
assert all(r["kind"] in ("refusal", "warning") for r in rules)
' || fail "check --rules --json does not give kinds and lists"

# a rule the original already breaks does not stop an edit elsewhere
printf '%s\n' "[{\"op\":\"replace\",\"path\":\"$blocks/blocks/0/direction\",\"value\":9}]" >"$tmp/p.json"
"$rebyte" apply -q --force "$tmp/p.json" "$map" -o "$tmp/broken.Gbx" 2>/dev/null || fail "forced write failed"
"$rebyte" apply -q "$src/samples/gbx/cookbook/rename.patch.json" "$tmp/broken.Gbx" -o "$tmp/renamed.Gbx" ||
    fail "an edit of a file that already breaks a rule was refused"

# data.win (docs/formats/datawin.md "Game rules"): the sample has no ROOM chunk, so the room
# rule's patch adds one (a GMS2 2.0 room of width 0)
win=$src/samples/datawin/sample.win
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
# every real file checks clean, warnings included: a rule one of them breaks is wrong, not the
# game (the public set, tests/public, is checked by public_world)
corpus=${REBYTE_SHARED:-$src/../shared}/corpus
if [ -d "$corpus" ]; then
    "$rebyte" check -q "$corpus" >"$tmp/check" || fail "a corpus file breaks a rule: $(head -3 "$tmp/check")"
    [ -s "$tmp/check" ] && fail "check warns on corpus files: $(head -3 "$tmp/check")"
    # check DIR walks like verify: the same files, one JSON line each
    "$rebyte" check --json "$corpus" >"$tmp/lines" || fail "check --json of the corpus failed"
    checked=$(wc -l <"$tmp/lines")
    verified=$("$rebyte" verify --json "$corpus" | grep -vc '"summary"')
    skipped=$("$rebyte" verify --json "$corpus" | grep -c '"status":"skipped"')
    [ "$checked" -eq $((verified - skipped)) ] || fail "check DIR took $checked files, verify $verified ($skipped skipped)"
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["status"] == "ok" and o["violations"] == [] and o["format"] != "?", o
' "$tmp/lines" || fail "check --json lines are not ok objects"
else
    echo "corpus not found at $corpus: the real-file checks are skipped"
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
