#!/bin/sh
# extract's target (docs/usage.md "Assets"): a new or empty folder, a folder that is not empty
# refused (exit 3, its files untouched) unless --force, a file refused; `-o -` one tar stream that
# the system's tar lists and unpacks to the folder's files; a failed extraction (a full disk,
# a fault-injecting write: FAULT_SHIM.so, optional) leaves no folder and no file it made.
# Usage: extract_target.sh [FAULT_SHIM.so]
. "$(dirname "$0")/../lib.sh"
shim=${1:-}
win=$src/samples/datawin/sample.win

"$rebyte" extract -q "$win" -o "$tmp/out" || fail "extract into a new folder"
[ -f "$tmp/out/manifest.json" ] || fail "no manifest"
printf 'edited' > "$tmp/out/textures/page-0000.png"
"$rebyte" extract -q "$win" -o "$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] || fail "a folder that is not empty: exit $rc, not 3"
grep -q "not empty" "$tmp/err" || fail "the refusal does not say why: $(cat "$tmp/err")"
[ "$(cat "$tmp/out/textures/page-0000.png")" = edited ] || fail "a refused extract changed a file"
"$rebyte" extract -q "$win" -o "$tmp/out" --force || fail "--force"
[ "$(cat "$tmp/out/textures/page-0000.png")" != edited ] || fail "--force did not write the file"
mkdir "$tmp/empty"
"$rebyte" extract -q "$win" -o "$tmp/empty" || fail "extract into an empty folder"
: > "$tmp/plain"
"$rebyte" extract -q "$win" -o "$tmp/plain" 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] || fail "a file as the target: exit $rc, not 3"

# -o -: a tar stream, and no folder named "-"
(cd "$tmp" && "$rebyte" extract -q "$win" -o - > "$tmp/assets.tar") || fail "extract -o -"
[ ! -e "$tmp/-" ] || fail "extract -o - made a folder named -"
if command -v tar >/dev/null 2>&1; then
    tar -tf "$tmp/assets.tar" > "$tmp/list" || fail "tar -t refuses the stream"
    grep -qx manifest.json "$tmp/list" || fail "the stream lacks manifest.json: $(cat "$tmp/list")"
    mkdir "$tmp/untarred" && tar -xf "$tmp/assets.tar" -C "$tmp/untarred" || fail "tar -x"
    diff -r "$tmp/untarred" "$tmp/empty" >/dev/null || fail "the stream's files differ from the folder's"
fi

# a failed extraction takes back what it made
if [ -n "$shim" ]; then
    LD_PRELOAD=$shim REBYTE_FAULT_AFTER=40 "$rebyte" extract -q "$win" -o "$tmp/full" 2>/dev/null; rc=$?
    [ $rc -eq 3 ] || fail "extract on a full disk: exit $rc, not 3"
    [ ! -e "$tmp/full" ] || fail "a failed extraction left $(find "$tmp/full")"
    mkdir "$tmp/kept"
    LD_PRELOAD=$shim REBYTE_FAULT_AFTER=40 "$rebyte" extract -q "$win" -o "$tmp/kept" 2>/dev/null
    [ -d "$tmp/kept" ] && [ -z "$(ls -A "$tmp/kept")" ] || fail "a failed extraction into an empty folder left files"
fi
finish "extract targets"
