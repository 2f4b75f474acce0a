#!/bin/sh
# The apply and diff commands as a user meets them: --patch for inputs that end in
# .json, a missing -o said so, a failed test shows the file's value, a missing chunk said so, a
# batch summary that names each file not patched and why, -j N giving the same files as one job,
# and diff's fingerprinted envelope applying back (and saying so on another base).
. "$(dirname "$0")/../lib.sh"

sample=$src/samples/gbx/sample.Map.Gbx
rename=$src/samples/gbx/cookbook/rename.patch.json

# --patch: an input whose name ends in .json is an input, not a patch
cp "$sample" "$tmp/map.json"
"$rebyte" apply -q --patch "$rename" "$tmp/map.json" -o "$tmp/out.Gbx" || fail "--patch with a .json input"
"$rebyte" verify -q "$tmp/out.Gbx" >/dev/null || fail "--patch output does not verify"
cmp -s "$sample" "$tmp/out.Gbx" && fail "--patch output is unchanged"

# a missing -o is said, exit 64, nothing written
"$rebyte" apply "$rename" "$sample" 2>"$tmp/err"; rc=$?
[ $rc -eq 64 ] || fail "missing -o: exit $rc"
grep -q "say where the result goes" "$tmp/err" || fail "missing -o not said: $(cat "$tmp/err")"

# a failed test shows what the file has; a missing chunk is said to be missing
cat >"$tmp/test-name.json" <<'EOF'
[{"op": "test", "path": "/body/chunks/[id=0x0304301F]/mapName", "value": "not the name"}]
EOF
"$rebyte" apply "$tmp/test-name.json" "$sample" -o "$tmp/x.Gbx" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "failed test: exit $rc"
grep -q 'mapName is "rebyte sample", not "not the name"' "$tmp/err" || fail "failed test without the file's value: $(cat "$tmp/err")"
[ -e "$tmp/x.Gbx" ] && fail "a failed test wrote its output"
cat >"$tmp/test-missing.json" <<'EOF'
[{"op": "test", "path": "/body/chunks/[id=0x03043099]/mapName", "value": "x"}]
EOF
"$rebyte" apply "$tmp/test-missing.json" "$sample" -o "$tmp/x.Gbx" 2>"$tmp/err"
grep -q "test failed: selector \[id=0x03043099\] matches 0 elements.*, so /body.* does not exist" "$tmp/err" ||
    fail "a missing chunk is not said to be missing: $(cat "$tmp/err")"

# a batch: the summary names each file that was not patched, after the progress, with why
mkdir "$tmp/batch"
for i in 1 2 3 4 5; do cp "$sample" "$tmp/batch/m$i.Map.Gbx"; done
printf 'not a map' >"$tmp/batch/broken.Map.Gbx"
cp "$src/samples/datawin/sample.win" "$tmp/batch/game.win"
"$rebyte" apply -q "$rename" "$tmp/batch" --in-place -j 2 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "batch with failures: exit $rc"
grep -q "^  $tmp/batch/broken.Map.Gbx: " "$tmp/err" || fail "summary does not name the broken file: $(cat "$tmp/err")"
grep -q "^  $tmp/batch/game.win: .*0x0304301F" "$tmp/err" || fail "summary does not say why game.win was not patched: $(cat "$tmp/err")"
grep -q "5/7 files patched" "$tmp/err" || fail "summary count: $(cat "$tmp/err")"
# -j 2 and one job give the same files
"$rebyte" apply -q "$rename" "$sample" -o "$tmp/one.Gbx"
for i in 1 2 3 4 5; do cmp -s "$tmp/one.Gbx" "$tmp/batch/m$i.Map.Gbx" || fail "-j 2 gave another m$i"; done

# diff: the envelope carries A's digest and applies back; on another base it says so
"$rebyte" diff "$sample" "$tmp/one.Gbx" >"$tmp/d.json"; rc=$?
[ $rc -eq 1 ] || fail "diff of different files: exit $rc"
grep -q '"rebytePatch": 1' "$tmp/d.json" || fail "diff without its envelope"
"$rebyte" apply -q "$tmp/d.json" "$sample" -o "$tmp/back.Gbx" 2>"$tmp/err" || fail "the diff does not apply: $(cat "$tmp/err")"
cmp -s "$tmp/back.Gbx" "$tmp/one.Gbx" || fail "the diff applied does not give B"
"$rebyte" apply "$tmp/d.json" "$tmp/one.Gbx" -o "$tmp/again.Gbx" 2>"$tmp/err"
grep -q "not the base" "$tmp/err" || fail "another base not said: $(cat "$tmp/err")"
"$rebyte" diff --plain "$sample" "$sample" >"$tmp/same.json"; rc=$?
[ $rc -eq 0 ] || fail "diff of a file with itself: exit $rc"
[ "$(tr -d ' \n' <"$tmp/same.json")" = "[]" ] || fail "diff --plain of a file with itself: $(cat "$tmp/same.json")"

# an identity diff of a re-sorted list: its elements swapped identities, so they are removed
# and added by identity (editing them in place by identity would address the wrong element)
box=$src/samples/tres/box.grf
cat >"$tmp/swap.json" <<'EOF'
[{"op": "move", "from": "/sections/1/region/instances/1", "path": "/sections/1/region/instances/0"}]
EOF
"$rebyte" apply -q "$tmp/swap.json" "$box" -o "$tmp/swapped.grf" || fail "swapping two instances"
"$rebyte" diff --by-identity "$box" "$tmp/swapped.grf" >"$tmp/swap-id.json" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "identity diff of a re-sorted list: exit $rc: $(cat "$tmp/err")"
"$rebyte" apply -q "$tmp/swap-id.json" "$box" -o "$tmp/swapped2.grf" || fail "the re-sort identity diff does not apply"
cmp -s "$tmp/swapped.grf" "$tmp/swapped2.grf" || fail "the re-sort identity diff does not give B"

# fuzz_apply's findings: each is taken or refused as it should be, and what is taken verifies
extras=$src/samples/gbx_mapextra/extras.Map.Gbx
takes_or_refuses() { # expected-exit file patch
    "$rebyte" apply -q "$3" "$2" -o "$tmp/m.out" 2>"$tmp/m.err"; m=$?
    [ $m -eq "$1" ] || fail "$(basename "$3"): exit $m, expected $1: $(cat "$tmp/m.err")"
    [ "$1" -ne 0 ] || "$rebyte" verify "$tmp/m.out" >/dev/null || fail "$(basename "$3"): the output does not verify"
}
printf '[{"op": "remove"}]' >"$tmp/no-path.json"
takes_or_refuses 2 "$sample" "$tmp/no-path.json"
printf '[{"op": "remove", "path": "/body/chunks/[id=0x0304305F]sd/0"}]' >"$tmp/runs-on.json"
takes_or_refuses 2 "$extras" "$tmp/runs-on.json"
printf '[{"op": "remove", "path": "/body/chunks/[id=0x03043062]/items/1"}]' >"$tmp/out-of-step.json"
takes_or_refuses 2 "$extras" "$tmp/out-of-step.json"
grep -q "items has 1 entries but chunk 0x03043040 has 2 anchoredObjects" "$tmp/m.err" ||
    fail "a per-item list out of step is not said: $(cat "$tmp/m.err")"
printf '[{"op": "replace", "from": " /x", "path": "/symbols/3/name", "value": "renamed"}]' >"$tmp/stray-from.json"
takes_or_refuses 0 "$box" "$tmp/stray-from.json"

# the dry run lists the change with the value it replaces, and writes nothing
"$rebyte" apply "$rename" "$sample" --dry-run >"$tmp/dry" 2>&1 || fail "dry run failed"
grep -q 'replace .*mapName: "rebyte sample" -> ' "$tmp/dry" || fail "dry run does not show the change: $(cat "$tmp/dry")"

[ $fails -eq 0 ] && echo "patch engine: ok"
[ $fails -eq 0 ]
