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

[ $fails -eq 0 ] && echo "game rules: ok"
exit $fails
