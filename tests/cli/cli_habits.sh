#!/bin/sh
# What a shell user expects: verify names a missing file (exit 3), -j 0 is every CPU,
# replace --dry-run writes nothing, dump --blobs=files makes missing folders, one wording of
# "changes" (an unchanged replace has 0 on every format), info gives a data.win's counts and a
# map's own body.
. "$(dirname "$0")/../lib.sh"
shared=${REBYTE_SHARED:-}
map=$src/samples/gbx/sample.Map.Gbx
win=$src/samples/datawin/sprites.win
tpa=$src/samples/tres/box.tpa

"$rebyte" verify "$tmp/missing.Gbx" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] || fail "verify of a missing file: exit $rc, expected 3"
grep -q "missing.Gbx" "$tmp/err" || fail "verify of a missing file does not name it: $(cat "$tmp/err")"
grep -q "1 not found" "$tmp/out" || fail "verify's summary does not count the missing file: $(cat "$tmp/out")"
"$rebyte" verify "$map" "$tmp/missing.Gbx" >/dev/null 2>&1; rc=$?
[ $rc -eq 3 ] || fail "verify of a file and a missing one: exit $rc, expected 3"

"$rebyte" verify -j 0 "$src/samples/gbx" >/dev/null 2>"$tmp/err" || fail "verify -j 0: $(cat "$tmp/err")"
"$rebyte" apply -j 0 --dry-run "$src/samples/gbx/rename-and-retime.patch.json" "$map" >/dev/null 2>"$tmp/err" ||
    fail "apply -j 0: $(cat "$tmp/err")"
"$rebyte" verify -j -1 "$map" >/dev/null 2>&1 && fail "verify -j -1 accepted"

# replace --dry-run: the changes on stdout, nothing written; then each format's unchanged replace
"$rebyte" extract "$win" -o "$tmp/win" -q || fail "extract $win"
page_path=$(sed -n 's/.*"path": "\(\/chunks[^"]*\)".*/\1/p' "$tmp/win/manifest.json" | head -1)
page_file=$(sed -n 's/.*"file": "\(textures[^"]*\)".*/\1/p' "$tmp/win/manifest.json" | head -1)
( cd "$tmp" && "$rebyte" replace "$win" "$page_path" "win/$page_file" --dry-run >"$tmp/out" 2>"$tmp/err" ) ||
    fail "replace --dry-run: $(cat "$tmp/err")"
grep -q "0 changes" "$tmp/out" || fail "replace --dry-run of an unchanged page: $(cat "$tmp/out")"
[ -z "$(ls "$tmp" | grep -v '^win$\|^out$\|^err$')" ] || fail "replace --dry-run wrote: $(ls "$tmp")"
"$rebyte" replace "$win" "$page_path" "$tmp/win/$page_file" -o "$tmp/w.win" 2>"$tmp/err" || fail "replace: $(cat "$tmp/err")"
grep -q "(0 changes)" "$tmp/err" || fail "unchanged data.win replace: $(cat "$tmp/err")"
"$rebyte" extract "$tpa" -o "$tmp/tpa" -q || fail "extract $tpa"
"$rebyte" replace "$tpa" /bodies/0/samples "$tmp/tpa/sounds/body-0000-missing.wav" -o "$tmp/t.tpa" 2>"$tmp/err" ||
    fail "replace tpa: $(cat "$tmp/err")"
grep -q "(0 changes)" "$tmp/err" || fail "unchanged .tpa replace: $(cat "$tmp/err")"
cmp -s "$tpa" "$tmp/t.tpa" || fail "unchanged .tpa replace changed the bytes"

# dump --blobs=files into folders that do not exist yet
"$rebyte" dump --blobs=files "$map" -o "$tmp/a/b/c/map.json" 2>"$tmp/err" || fail "dump --blobs=files: $(cat "$tmp/err")"
[ -f "$tmp/a/b/c/map.json" ] && [ -d "$tmp/a/b/c/map.files" ] || fail "dump --blobs=files made no folders"
"$rebyte" build "$tmp/a/b/c/map.json" -o "$tmp/again.Gbx" 2>"$tmp/err" && cmp -s "$map" "$tmp/again.Gbx" ||
    fail "the dump with files does not build back: $(cat "$tmp/err")"

# info of a data.win counts its lists, as the dump has them
"$rebyte" info --json "$win" >"$tmp/info" || fail "info $win"
sprites=$("$rebyte" dump --blobs=omit "$win" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(next(len(c["sprites"]) for c in d["chunks"] if c["id"]=="SPRT"))' 2>/dev/null)
[ -n "$sprites" ] && grep -q "\"sprites\":$sprites" "$tmp/info" || fail "info of a data.win has no sprite count ($sprites): $(cat "$tmp/info")"

# info of a map with embedded items: the map's own body, as large as the file says
odyssey=$shared/corpus/gbx/248ddf65_CCP_04_-_ODYSSEY.Map.Gbx
if [ -f "$odyssey" ]; then
    "$rebyte" info --json "$odyssey" >"$tmp/info"
    python3 - "$tmp/info" <<'P' || fail "info of a map with embedded items: $(cat "$tmp/info")"
import json, sys
d = json.load(open(sys.argv[1]))
body, embedded = d["body"], d["embedded_streams"]
assert body["compressed_size"] > d["size"] // 2, body  # the map's body, not a 10 KB item's
assert embedded["count"] > 0, embedded
P
fi
# verify -j hands files out largest first, a block of 64 per job at a time: over more files than
# two blocks (the samples folder named twelve times) its output is -j1's, line for line
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do set -- "$@" "$src/samples"; done
"$rebyte" verify -j1 "$@" >"$tmp/j1" 2>/dev/null
for jobs in 2 3; do
    "$rebyte" verify -j$jobs "$@" >"$tmp/jn" 2>/dev/null
    cmp -s "$tmp/j1" "$tmp/jn" || fail "verify -j$jobs over $(wc -l <"$tmp/j1") lines: not -j1's output"
done
"$rebyte" verify -j1 --json "$@" >"$tmp/j1" 2>/dev/null
"$rebyte" verify -j2 --json "$@" >"$tmp/jn" 2>/dev/null
cmp -s "$tmp/j1" "$tmp/jn" || fail "verify -j2 --json: not -j1's output"

[ "$fails" -eq 0 ] && echo "cli habits: all passed"
[ "$fails" -eq 0 ]
