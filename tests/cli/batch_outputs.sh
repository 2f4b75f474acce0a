#!/bin/sh
# Batches write where asked, and every command reports what went wrong (docs/usage.md
# "A batch into a folder: `-o DIR/`", "Where outputs go", "Verifying and regression testing"):
# `apply PATCH f1 ... f12 -o DIR/` writes 12 verified results and leaves the inputs as they were;
# files found under a named folder keep their path below it; two inputs for one name, or a result
# that would replace its input, are refused before anything is written; every report line of a
# batch names its file; "N changes" counts the values that changed; every command whose stdout
# is a full device exits 3; a folder where a file is read is "a directory", and verify and check
# of a folder with no file of a known format say so and exit 2.
. "$(dirname "$0")/../lib.sh"
sample="$src/samples/gbx/sample.Map.Gbx"
patch="$src/samples/gbx/rename-and-retime.patch.json"

# 1. twelve inputs into a folder, two at a time: twelve verified results, inputs untouched
mkdir "$tmp/in" "$tmp/out"
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do cp "$sample" "$tmp/in/m$i.Map.Gbx"; done
"$rebyte" apply -q "$patch" "$sample" -o "$tmp/one.Map.Gbx" 2>"$tmp/err" || fail "apply -o FILE: $(cat "$tmp/err")"
"$rebyte" apply "$patch" "$tmp"/in/m*.Map.Gbx -o "$tmp/out/" -j2 2>"$tmp/err" ||
    fail "apply f1 ... f12 -o DIR/ -j2: exit $?: $(head -3 "$tmp/err")"
[ "$(ls "$tmp/out" | wc -l)" -eq 12 ] || fail "-o DIR/: $(ls "$tmp/out" | wc -l) results, not 12"
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
    cmp -s "$tmp/in/m$i.Map.Gbx" "$sample" || fail "-o DIR/: input m$i was changed"
    cmp -s "$tmp/out/m$i.Map.Gbx" "$tmp/one.Map.Gbx" || fail "-o DIR/: m$i is not the result -o FILE gives"
done
grep -q "12/12 files patched" "$tmp/err" || fail "-o DIR/: no summary of 12 files: $(tail -1 "$tmp/err")"
grep -q "m07.Map.Gbx -> $tmp/out/m07.Map.Gbx: patched and verified" "$tmp/err" || fail "-o DIR/: the report does not name each result"
"$rebyte" verify -q "$tmp/out" >"$tmp/verify" 2>&1 || fail "the results do not verify: $(tail -1 "$tmp/verify")"
grep -q "^12/12 exact" "$tmp/verify" || fail "verify of the results: $(tail -1 "$tmp/verify")"
# without the trailing slash, one job, one input
rm -rf "$tmp/out"/*
"$rebyte" apply -q "$patch" "$tmp/in/m01.Map.Gbx" -o "$tmp/out" -j1 2>"$tmp/err" || fail "apply f -o DIR: $(cat "$tmp/err")"
cmp -s "$tmp/out/m01.Map.Gbx" "$tmp/one.Map.Gbx" || fail "apply f -o DIR (one input): no result under its name"

# 2. files found under a named folder: their path below it, subfolders made
mkdir -p "$tmp/tree/stadium/deep" "$tmp/tree2" "$tmp/out2"
cp "$sample" "$tmp/tree/top.Map.Gbx"
cp "$sample" "$tmp/tree/stadium/deep/low.Map.Gbx"
"$rebyte" apply -q "$patch" "$tmp/tree/" -o "$tmp/out2" 2>"$tmp/err" || fail "apply FOLDER -o DIR: $(cat "$tmp/err")"
cmp -s "$tmp/out2/top.Map.Gbx" "$tmp/one.Map.Gbx" || fail "apply FOLDER -o DIR: top.Map.Gbx not written under its name"
cmp -s "$tmp/out2/stadium/deep/low.Map.Gbx" "$tmp/one.Map.Gbx" ||
    fail "apply FOLDER -o DIR: stadium/deep/low.Map.Gbx not written under its path below the folder"
# an output folder inside the input folder: its files (earlier results) are no inputs
mkdir "$tmp/tree/results"
for run in 1 2; do
    "$rebyte" apply -q "$patch" "$tmp/tree" -o "$tmp/tree/results/" 2>"$tmp/err" || fail "apply FOLDER -o FOLDER/results (run $run): $(cat "$tmp/err")"
done
[ "$(find "$tmp/tree/results" -type f | wc -l)" -eq 2 ] || fail "the output folder inside the input was walked: $(find "$tmp/tree/results" -type f)"

# 3. refused before anything is written: two inputs for one name, a result onto its input,
#    several inputs with -o FILE, -o missing/
mkdir "$tmp/a" "$tmp/b" "$tmp/out3"
cp "$sample" "$tmp/a/same.Map.Gbx"
cp "$sample" "$tmp/b/same.Map.Gbx"
cp "$sample" "$tmp/a/other.Map.Gbx"
"$rebyte" apply "$patch" "$tmp/a/other.Map.Gbx" "$tmp/a/same.Map.Gbx" "$tmp/b/same.Map.Gbx" -o "$tmp/out3/" 2>"$tmp/err"
[ $? -eq 64 ] || fail "two inputs of one name: exit status is not 64"
grep -q "$tmp/a/same.Map.Gbx and $tmp/b/same.Map.Gbx would both be written" "$tmp/err" ||
    fail "two inputs of one name: both are not named: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/out3")" ] || fail "two inputs of one name: something was written: $(ls "$tmp/out3")"
"$rebyte" apply "$patch" "$tmp/a/other.Map.Gbx" -o "$tmp/a" 2>"$tmp/err"
[ $? -eq 64 ] && grep -q "would replace its input" "$tmp/err" || fail "-o the input's folder: not refused: $(cat "$tmp/err")"
cmp -s "$tmp/a/other.Map.Gbx" "$sample" || fail "-o the input's folder: the input was changed"
"$rebyte" apply "$patch" "$tmp/a/other.Map.Gbx" "$tmp/b/same.Map.Gbx" -o "$tmp/file.Gbx" 2>"$tmp/err"
[ $? -eq 64 ] && [ ! -e "$tmp/file.Gbx" ] || fail "several inputs with -o FILE: not refused"
"$rebyte" apply "$patch" "$tmp/a/other.Map.Gbx" -o "$tmp/missing/" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -e "$tmp/missing" ] || fail "-o missing/: not refused with exit 3, or the folder was made"

# 4. every report line of a batch names its file (-j2: the files report at once)
printf '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/decoration/id","value":"NoSuchMood"}]' >"$tmp/mood.json"
"$rebyte" apply "$tmp/mood.json" "$tmp/in/m01.Map.Gbx" "$tmp/in/m02.Map.Gbx" -o "$tmp/out/" -j2 2>"$tmp/err" ||
    fail "the warning batch failed: $(cat "$tmp/err")"
[ "$(grep -c "(warning)" "$tmp/err")" -eq 2 ] || fail "the batch does not print one warning per file: $(cat "$tmp/err")"
grep "(warning)" "$tmp/err" | grep -v -q "m0[12].Map.Gbx: game rule" && fail "a warning does not name its file: $(cat "$tmp/err")"

# 5. "N changes": a replace by the same value is no change, in the report, the dry run and the
#    line of each stacked patch
printf '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/mapName","value":"rebyte sample"},
 {"op":"replace","path":"/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x0305B004]/goldTime","value":31000}]' \
    >"$tmp/same.json"
"$rebyte" apply "$tmp/same.json" "$sample" -o "$tmp/same.Map.Gbx" 2>"$tmp/err" || fail "the same-value patch: $(cat "$tmp/err")"
grep -q "patched and verified (1 change)" "$tmp/err" || fail "a replace by the same value was counted: $(cat "$tmp/err")"
"$rebyte" apply "$tmp/same.json" "$sample" --dry-run >"$tmp/dry" 2>"$tmp/err"
grep -q "sample.Map.Gbx: 1 change$" "$tmp/dry" || fail "dry run: not 1 change: $(head -1 "$tmp/dry")"
grep -q mapName "$tmp/dry" && fail "dry run: lists the replace by the same value"
"$rebyte" apply --patch "$tmp/same.json" --patch "$patch" --conflicts=last-wins "$sample" -o "$tmp/two.Map.Gbx" 2>"$tmp/err"
grep -q "sample.Map.Gbx: $tmp/same.json: 1 change" "$tmp/err" && grep -q "rename-and-retime.patch.json: 2 changes" "$tmp/err" ||
    fail "stacked patches: the counts of changes: $(cat "$tmp/err")"
printf '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/mapName","value":"rebyte sample"}]' >"$tmp/noop.json"
"$rebyte" apply "$tmp/noop.json" "$sample" -o "$tmp/noop.Map.Gbx" 2>"$tmp/err"
grep -q "(0 changes)" "$tmp/err" && cmp -s "$tmp/noop.Map.Gbx" "$sample" || fail "a patch that changes nothing: $(cat "$tmp/err")"

# 6. every command checks its stdout: on a full device, exit 3 with a message
if [ -w /dev/full ]; then
    "$rebyte" dump "$sample" -o "$tmp/sample.json" 2>/dev/null
    printf '{"a": 1}' >"$tmp/doc.json"
    printf '[{"op": "replace", "path": "/a", "value": 2}]' >"$tmp/doc.patch.json"
    while IFS='|' read -r what args; do
        # shellcheck disable=SC2086
        eval "\"\$rebyte\" $args" >/dev/full 2>"$tmp/err"
        rc=$?
        [ $rc -eq 3 ] || fail "$what with stdout on /dev/full: exit $rc, not 3"
        grep -q "stdout" "$tmp/err" || fail "$what with stdout on /dev/full: no message: $(cat "$tmp/err")"
    done <<EOF
info|info "\$sample"
info --json|info --json "\$sample"
verify|verify "\$sample"
verify --json|verify --json "\$sample"
check|check "\$sample"
check --rules|check --rules
check --rules --json|check --rules --json
formats|formats
apply --dry-run|apply --dry-run "\$patch" "\$sample"
apply -o -|apply "\$patch" "\$sample" -o -
dump|dump "\$sample"
diff|diff "\$sample" "\$tmp/one.Map.Gbx"
resolve|resolve "\$patch" "\$sample"
json-patch|json-patch "\$tmp/doc.json" "\$tmp/doc.patch.json"
rewrite -o -|rewrite "\$sample" -o -
build -o -|build "\$tmp/sample.json" -o -
convert -o -|convert --to text "\$sample" -o -
downgrade-items --print-patch|downgrade-items "\$sample" --print-patch
--help|--help
apply --help|apply --help
help verify|help verify
--version|--version
EOF
else
    echo "note: no writable /dev/full here: the full-stdout checks were not run"
fi

# 7. a folder as input
for c in info dump rewrite; do
    if [ $c = rewrite ]; then "$rebyte" $c "$tmp/in" -o "$tmp/x.Gbx" >/dev/null 2>"$tmp/err"; else "$rebyte" $c "$tmp/in" >/dev/null 2>"$tmp/err"; fi
    rc=$?
    [ $rc -eq 3 ] && grep -q "in: is a directory" "$tmp/err" || fail "$c FOLDER: exit $rc, $(cat "$tmp/err")"
done
"$rebyte" apply "$tmp/in" "$sample" -o "$tmp/x.Gbx" 2>"$tmp/err"
grep -q "is a directory" "$tmp/err" || fail "apply with a folder for a patch: $(cat "$tmp/err")"
mkdir "$tmp/empty" "$tmp/other"
echo "not a game file" >"$tmp/other/README.txt"
for c in verify "verify --json" "verify -j1" check "check --json"; do
    for d in empty other; do
        $rebyte $c "$tmp/$d" >"$tmp/out.txt" 2>"$tmp/err"
        rc=$?
        [ $rc -eq 2 ] || fail "$c of a folder with no game file ($d): exit $rc, not 2"
        grep -q "$d: no file of a known format in this folder" "$tmp/err" || fail "$c $d: not said: $(cat "$tmp/err")"
    done
done
"$rebyte" verify --json "$tmp/empty" 2>/dev/null | grep -q '"folders_without_known_file":1' || fail "verify --json: the summary does not count the folder"
"$rebyte" verify "$tmp/empty" "$tmp/in" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "verify of an empty folder beside a full one: not exit 2"
"$rebyte" verify -q "$tmp/in" >/dev/null 2>&1 || fail "verify of a folder of maps no longer succeeds"

finish "batch outputs, reports, stdout checks, folder inputs"
