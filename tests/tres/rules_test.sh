#!/bin/sh
# GROFF names and game rules: instances are renamed by their names (no handles), a
# name two instances would share is refused naming the rule (written with --force, reported by
# check), and every corpus level and scene checks clean.
. "$(dirname "$0")/../lib.sh"
box=$src/samples/tres/box.grf

"$rebyte" check "$box" >/dev/null || fail "the sample level breaks a rule"
"$rebyte" dump "$box" | grep -q '"name": "Box-01"' || fail "instance names are not shown as text"
printf '%s' '[{"op":"replace","path":"/sections/1/region/instances/[name=Box-01]/name","value":"Box-00"}]' >"$tmp/p.json"
"$rebyte" apply "$tmp/p.json" "$box" -o "$tmp/out.grf" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "a shared instance name: exit $rc"
grep -q "game rule instance-names-unique at /sections/1/region/instances/1/name" "$tmp/err" ||
    fail "the refusal does not name the rule: $(cat "$tmp/err")"
[ -e "$tmp/out.grf" ] && fail "a refused level was written"
"$rebyte" apply --force "$tmp/p.json" "$box" -o "$tmp/out.grf" 2>/dev/null || fail "--force did not write"
"$rebyte" check "$tmp/out.grf" | grep -q ": instance-names-unique: " || fail "check does not report the shared name"
# a name the level does not have: a new symbol, the handle derived, the old name gone
printf '%s' '[{"op":"replace","path":"/sections/1/region/instances/[name=Box-01]/name","value":"A brand new name"}]' >"$tmp/p.json"
"$rebyte" apply -q "$tmp/p.json" "$box" -o "$tmp/new.grf" || fail "renaming to a new name"
"$rebyte" dump "$tmp/new.grf" >"$tmp/new.json"
grep -q '"name": "A brand new name"' "$tmp/new.json" || fail "the new name is not shown"
grep -q '"Box-01"' "$tmp/new.json" && fail "the old name is still in the name table"
"$rebyte" verify -q "$tmp/new.grf" >/dev/null || fail "the renamed level does not verify"
corpus=${REBYTE_SHARED:-$src/../shared}/corpus/tres
if [ -d "$corpus" ]; then
    for f in "$corpus"/*.grf "$corpus"/*.scn; do
        [ -f "$f" ] || continue
        "$rebyte" check "$f" >/dev/null || fail "$(basename "$f") breaks a rule"
        "$rebyte" dump "$f" -o "$tmp/d.json" && "$rebyte" build "$tmp/d.json" -o "$tmp/d.bin" && cmp -s "$tmp/d.bin" "$f" ||
            fail "$(basename "$f"): dump -> build (names as text) is not exact"
    done
fi
[ $fails -eq 0 ] && echo "groff names and rules: ok"
exit $fails
