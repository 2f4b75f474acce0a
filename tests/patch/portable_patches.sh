#!/bin/sh
# Portable patches: identity selectors, identity diffs that keep applying to another base,
# base fingerprints with field-by-field reports, default diffs that apply to their base only,
# stacking with conflict policies.
set -u
rebyte=${REBYTE:?}
src=${REBYTE_SOURCE:?}
corpus=${REBYTE_SHARED:-$src/../shared}/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
sample=$src/samples/gbx/sample.Map.Gbx
B='/body/chunks/[id=0x0304301F]'

# selectors: resolution, no match, several matches
printf '[{"op":"replace","path":"%s/mapName","value":"S"}]' "$B" > "$tmp/sel.json"
"$rebyte" resolve "$tmp/sel.json" "$sample" | grep -q '"/body/chunks/[0-9]*/mapName"' || fail "resolve does not give a plain pointer"
printf '[{"op":"replace","path":"/body/chunks/[id=0x0BADF00D]/x","value":1}]' > "$tmp/none.json"
"$rebyte" apply "$tmp/none.json" "$sample" -o "$tmp/o.Gbx" 2>"$tmp/err"; [ $? -eq 2 ] || fail "unmatched selector accepted"
grep -q "matches 0 elements" "$tmp/err" || fail "unmatched selector message: $(cat "$tmp/err")"
printf '[{"op":"replace","path":"%s/blocks/[flags=0x00001000]/direction","value":1}]' "$B" > "$tmp/many.json"
"$rebyte" apply "$tmp/many.json" "$sample" -o "$tmp/o.Gbx" 2>"$tmp/err"; [ $? -eq 2 ] || fail "ambiguous selector accepted"
grep -q "matches 3 elements" "$tmp/err" || fail "ambiguous selector message: $(cat "$tmp/err")"
[ ! -e "$tmp/o.Gbx" ] || fail "output written by a failing patch"

# stacking: independent patches both apply; overlapping ones follow the policy
printf '[{"op":"replace","path":"%s/mapName","value":"First"}]' "$B" > "$tmp/p1.json"
printf '[{"op":"replace","path":"%s/mapName","value":"Second"}]' "$B" > "$tmp/p2.json"
printf '[{"op":"replace","path":"%s/decoration/id","value":"48x48Night"}]' "$B" > "$tmp/p3.json"
"$rebyte" apply -q "$tmp/p1.json" "$tmp/p3.json" "$sample" -o "$tmp/s13.Gbx" || fail "independent stacked patches"
"$rebyte" info --json "$tmp/s13.Gbx" | grep -q '"name":"First".*"decoration":"48x48Night"' || fail "stacked edits missing"
"$rebyte" apply "$tmp/p1.json" "$tmp/p2.json" "$sample" -o "$tmp/s12.Gbx" 2>"$tmp/err"; [ $? -eq 2 ] || fail "conflict not stopped"
grep -q "both change" "$tmp/err" || fail "conflict message: $(cat "$tmp/err")"
"$rebyte" apply -q --conflicts=first-wins "$tmp/p1.json" "$tmp/p2.json" "$sample" -o "$tmp/first.Gbx" 2>/dev/null || fail "first-wins"
"$rebyte" info --json "$tmp/first.Gbx" | grep -q '"name":"First"' || fail "first-wins kept the wrong value"
"$rebyte" apply -q --conflicts=last-wins "$tmp/p1.json" "$tmp/p2.json" "$sample" -o "$tmp/last.Gbx" || fail "last-wins"
"$rebyte" info --json "$tmp/last.Gbx" | grep -q '"name":"Second"' || fail "last-wins kept the wrong value"

# an identity patch proves itself and carries its base
"$rebyte" apply -q "$src/samples/gbx/rename-and-retime.patch.json" "$sample" -o "$tmp/renamed.Gbx"
"$rebyte" diff --by-identity "$sample" "$tmp/renamed.Gbx" > "$tmp/identity.json"; [ $? -eq 1 ] || fail "identity diff exit"
grep -q '"rebytePatch"' "$tmp/identity.json" && grep -q '"crc32"' "$tmp/identity.json" || fail "identity patch without base"
"$rebyte" apply -q "$tmp/identity.json" "$sample" -o "$tmp/again.Gbx" || fail "identity patch on its own base"
cmp -s "$tmp/again.Gbx" "$tmp/renamed.Gbx" || fail "identity patch does not reproduce B"

# a default diff (by position) applies to its base only: on another file it is refused even
# where every value it pins holds, and writes nothing; by identity it applies there; --force
# passes the refusal with a warning
printf '[{"op":"replace","path":"%s/mapName","value":"Shared"},{"op":"remove","path":"%s/blocks/1"}]' "$B" "$B" > "$tmp/share.json"
"$rebyte" apply -q "$tmp/share.json" "$sample" -o "$tmp/shared.Gbx" || fail "making the edit to share"
printf '[{"op":"replace","path":"/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x0305B004]/authorTime","value":29000}]' > "$tmp/other.json"
"$rebyte" apply -q "$tmp/other.json" "$sample" -o "$tmp/other.Gbx" || fail "making another base"
"$rebyte" diff "$sample" "$tmp/shared.Gbx" > "$tmp/positional.json"
grep -q '"addressing": "index"' "$tmp/positional.json" || fail "the default diff does not say it addresses by index"
[ "$(grep -c '"op": "test"' "$tmp/positional.json")" -eq 2 ] ||
    fail "the default diff does not pin the replaced name and the removed block: $(cat "$tmp/positional.json")"
"$rebyte" apply -q "$tmp/positional.json" "$sample" -o "$tmp/again.Gbx" && cmp -s "$tmp/again.Gbx" "$tmp/shared.Gbx" ||
    fail "the default diff does not re-apply to its base"
"$rebyte" apply "$tmp/positional.json" "$tmp/other.Gbx" -o "$tmp/other-out.Gbx" 2>"$tmp/err"; [ $? -eq 2 ] ||
    fail "a default diff applied to another base"
grep -q "by position: it applies to the file it was made from only" "$tmp/err" || fail "positional refusal message: $(cat "$tmp/err")"
[ ! -e "$tmp/other-out.Gbx" ] || fail "output written by a refused diff"
"$rebyte" diff --by-identity "$sample" "$tmp/shared.Gbx" > "$tmp/by-identity.json"
grep -q '"addressing": "identity"' "$tmp/by-identity.json" || fail "the identity diff does not say it addresses by identity"
"$rebyte" apply -q "$tmp/by-identity.json" "$tmp/other.Gbx" -o "$tmp/other-out.Gbx" 2>"$tmp/err" ||
    fail "an identity diff whose pins hold on another base: $(cat "$tmp/err")"
"$rebyte" apply --force "$tmp/positional.json" "$tmp/other.Gbx" -o "$tmp/forced.Gbx" 2>"$tmp/err" ||
    fail "apply --force of a default diff on another base: $(cat "$tmp/err")"
grep -q "applying anyway (forced)" "$tmp/err" || fail "forced positional diff: no warning: $(cat "$tmp/err")"
"$rebyte" apply "$tmp/positional.json" "$tmp/shared.Gbx" -o "$tmp/twice.Gbx" 2>"$tmp/err"; [ $? -eq 2 ] ||
    fail "a default diff applied to its own result"
grep -q "mapName: the patch expects \"rebyte sample\", this file has \"Shared\"" "$tmp/err" ||
    fail "the failing pin is not named: $(cat "$tmp/err")"
"$rebyte" apply --force "$tmp/by-identity.json" "$tmp/shared.Gbx" -o "$tmp/forced2.Gbx" 2>"$tmp/err"
grep -q "the pin of .*mapName fails (it expects \"rebyte sample\", this file has \"Shared\"): passed (forced)" "$tmp/err" ||
    fail "forced identity diff: the failing pin is not named: $(cat "$tmp/err")"
"$rebyte" diff --plain "$sample" "$tmp/shared.Gbx" > "$tmp/bare.json"
! grep -q '"test"\|rebytePatch' "$tmp/bare.json" || fail "diff --plain is not a bare unpinned array: $(cat "$tmp/bare.json")"

# files of two classes (a map, a replay): refused, nothing printed
"$rebyte" diff "$sample" "$src/samples/gbx_ghost/minimal.Replay.Gbx" > "$tmp/classes.json" 2>"$tmp/err"
[ $? -eq 2 ] || fail "diff of a map and a replay: exit is not 2"
grep -q "CGameCtnChallenge.*CGameCtnReplayRecord: diff needs two files of one class" "$tmp/err" ||
    fail "diff of a map and a replay: message $(cat "$tmp/err")"
[ ! -s "$tmp/classes.json" ] || fail "diff of a map and a replay printed a patch"

# a GROFF level that gained an instance before the edited one (made by the project): a move made
# on the old level moves the same instance (by its name) in the new one
T=$src/samples/tres
printf '%s' '[{"op":"add","path":"/sections/1/region/instances/0","value":{"objectSection":"0x80000002","name":"Box-02","position":{"x":-5,"y":0,"z":0},"rotation":{"x":0,"y":0,"z":0},"scale":1.0,"values":{"id":0,"count":0}}}]' > "$tmp/addinst.json"
"$rebyte" apply -q "$tmp/addinst.json" "$T/box.grf" -o "$tmp/newer.grf" || fail "making the newer level"
"$rebyte" apply -q "$T/box-move-instance.patch.json" "$T/box.grf" -o "$tmp/moved.grf" || fail "moving on the old level"
"$rebyte" diff --by-identity "$T/box.grf" "$tmp/moved.grf" > "$tmp/move-portable.json"
grep -q 'instances/\[name=Box-01\]' "$tmp/move-portable.json" || fail "the instance is not addressed by identity (its name)"
"$rebyte" apply -q "$tmp/move-portable.json" "$tmp/newer.grf" -o "$tmp/newer-moved.grf" 2>/dev/null || fail "portable move on the newer level"
"$rebyte" diff --plain "$tmp/newer.grf" "$tmp/newer-moved.grf" > "$tmp/gdiff.json"
grep -q '"/sections/1/region/instances/2/position/x"' "$tmp/gdiff.json" && [ "$(grep -c '"op"' "$tmp/gdiff.json")" -eq 2 ] ||
    fail "the newer level's instance Box-01 (now third) was not the one moved: $(cat "$tmp/gdiff.json")"

# a data.win updated with a string inserted before the edited one (string references are links
# by text): a rename made on the old file applies to the newer one and edits the same objects
G=$src/samples/datawin/sample.win
printf '%s' '[{"op":"add","path":"/chunks/[id=STRG]/strings/0","value":"a string added by an update"}]' > "$tmp/upd.json"
"$rebyte" apply -q "$tmp/upd.json" "$G" -o "$tmp/newer.win" || fail "making the newer data.win"
printf '%s' '[{"op":"replace","path":"/chunks/[id=STRG]/strings/[=rebyte sample game]","value":"My Game"},{"op":"replace","path":"/chunks/[id=GEN8]/displayName","value":"My Game"}]' > "$tmp/ren.json"
"$rebyte" apply -q "$tmp/ren.json" "$G" -o "$tmp/renamed.win" || fail "string edit by content"
"$rebyte" diff --by-identity "$G" "$tmp/renamed.win" > "$tmp/win-portable.json"
grep -q 'strings/\[=rebyte sample game\]' "$tmp/win-portable.json" || fail "the string is not addressed by its text"
"$rebyte" apply -q "$tmp/win-portable.json" "$tmp/newer.win" -o "$tmp/newer-renamed.win" 2>"$tmp/err" ||
    fail "portable string edit on the newer data.win: $(cat "$tmp/err")"
"$rebyte" dump "$tmp/newer-renamed.win" -o "$tmp/nr.json" || fail "dump the newer renamed data.win"
python3 - "$tmp/nr.json" <<'PY' || fail "the newer data.win's string (now fourth) and display name were not the ones edited"
import json, sys
m = json.load(open(sys.argv[1]))
chunk = {c["id"]: c for c in m["chunks"]}
assert chunk["STRG"]["strings"] == ["a string added by an update", "sample", "Default", "My Game"], chunk["STRG"]["strings"]
assert chunk["GEN8"]["displayName"] == "My Game" and chunk["GEN8"]["name"] == "sample"
PY

# a real game (corpus) updated with a string inserted before all others: a patch made by identity on
# the old build (move an instance, rename a sprite) applies to the newer build and edits the same objects
W=$corpus/datawin/BasicSlowLight_data.win
if [ -f "$W" ]; then
    printf '%s' '[{"op":"add","path":"/chunks/[id=STRG]/strings/0","value":"a string added by an update"}]' > "$tmp/wupd.json"
    "$rebyte" apply -q "$tmp/wupd.json" "$W" -o "$tmp/newer-game.win" || fail "making the newer game build"
    room=$("$rebyte" dump "$W" | python3 -c 'import json,sys; m=json.load(sys.stdin); r=[c for c in m["chunks"] if c["id"]=="ROOM"][0]["rooms"][0]; print(r["name"], r["instances"][0]["instanceId"], [c for c in m["chunks"] if c["id"]=="SPRT"][0]["sprites"][0]["name"])')
    set -- $room
    printf '[{"op":"add","path":"/chunks/[id=STRG]/strings/-","value":"sRenamed"},{"op":"replace","path":"/chunks/[id=SPRT]/sprites/[name=%s]/name","value":"sRenamed"},{"op":"replace","path":"/chunks/[id=ROOM]/rooms/[name=%s]/instances/[instanceId=%s]/x","value":123}]' "$3" "$1" "$2" > "$tmp/wedit.json"
    "$rebyte" apply -q "$tmp/wedit.json" "$W" -o "$tmp/game-edited.win" || fail "edit the old game build"
    "$rebyte" diff --by-identity "$W" "$tmp/game-edited.win" > "$tmp/game-portable.json"
    "$rebyte" apply -q "$tmp/game-portable.json" "$tmp/newer-game.win" -o "$tmp/newer-game-edited.win" 2>"$tmp/err" ||
        fail "portable game edit on the newer build: $(cat "$tmp/err")"
    "$rebyte" verify -q "$tmp/newer-game-edited.win" >/dev/null || fail "the edited newer build does not verify"
    "$rebyte" dump "$tmp/newer-game-edited.win" | python3 -c '
import json, sys
m = json.load(sys.stdin)
c = {x["id"]: x for x in m["chunks"]}
assert c["SPRT"]["sprites"][0]["name"] == "sRenamed", c["SPRT"]["sprites"][0]["name"]
assert c["ROOM"]["rooms"][0]["instances"][0]["x"] == 123
assert c["STRG"]["strings"][0] == "a string added by an update" and c["STRG"]["strings"][-1] == "sRenamed"
' || fail "the newer build's sprite and instance were not the ones edited"
else
    echo "note: corpus not found at $corpus (set REBYTE_SHARED): the game-update test was skipped"
fi

# two game versions' saves of one map (corpus): a patch made on one edits the same objects of the other
A=$corpus/gbx/7ee41f44_TrialTime.Challenge.Gbx
Bfile=$corpus/gbx/adbf2275_TrialTime.Challenge.Gbx
if [ -f "$A" ] && [ -f "$Bfile" ]; then
    L='/body/chunks/[id=0x2400301F]'
    printf '[{"op":"replace","path":"%s/mapName","value":"TrialTime (edited)"},{"op":"replace","path":"%s/blocks/5/direction","value":3}]' "$L" "$L" > "$tmp/edit.json"
    "$rebyte" apply -q "$tmp/edit.json" "$A" -o "$tmp/A2.Gbx" || fail "edit A"
    "$rebyte" diff --by-identity "$A" "$tmp/A2.Gbx" > "$tmp/portable.json"
    grep -q 'blocks/\[name=' "$tmp/portable.json" || fail "the block is not addressed by identity"
    "$rebyte" apply -q "$tmp/portable.json" "$Bfile" -o "$tmp/B2.Gbx" 2>"$tmp/err" || fail "portable patch on the other save: $(cat "$tmp/err")"
    "$rebyte" diff --plain "$Bfile" "$tmp/B2.Gbx" > "$tmp/bdiff.json"
    [ "$(grep -c '"op"' "$tmp/bdiff.json")" -eq 2 ] || fail "the other save changed in more than two places: $(cat "$tmp/bdiff.json")"
    block=$(grep -o 'blocks/\[[^]]*\]' "$tmp/portable.json" | head -1)
    printf '[{"op":"test","path":"%s/%s/direction","value":3},{"op":"test","path":"%s/mapName","value":"TrialTime (edited)"}]' "$L" "$block" "$L" > "$tmp/check.json"
    "$rebyte" apply -q "$tmp/check.json" "$tmp/B2.Gbx" --dry-run >/dev/null || fail "the same block of the other save was not turned"
    # a pinned value that differs in the other save: refused, field by field
    printf '[{"op":"replace","path":"/body/chunks/[id=0x24003011]/challengeParameters/chunks/[id=0x2400C004]/authorTime","value":1000}]' > "$tmp/retime.json"
    "$rebyte" apply -q "$tmp/retime.json" "$A" -o "$tmp/A3.Gbx"
    "$rebyte" diff --by-identity "$A" "$tmp/A3.Gbx" > "$tmp/retime-portable.json"
    "$rebyte" apply "$tmp/retime-portable.json" "$Bfile" -o "$tmp/B3.Gbx" 2>"$tmp/err"; [ $? -eq 2 ] || fail "pin mismatch accepted"
    grep -q "authorTime: the patch expects" "$tmp/err" || fail "pin mismatch not reported field by field: $(cat "$tmp/err")"
    [ ! -e "$tmp/B3.Gbx" ] || fail "output written although a pin failed"
else
    echo "note: corpus not found at $corpus (set REBYTE_SHARED): the two-save test was skipped"
fi
[ "$fails" -eq 0 ] && echo "portable patches: all passed"
[ "$fails" -eq 0 ]
