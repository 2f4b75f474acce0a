#!/bin/sh
# `dump --blobs=files` -> `build` without the original is byte-exact
# (docs/usage.md "Blobs as files"): on every sample and, when REBYTE_SHARED has the corpus,
# every corpus file of a known format. The dump keeps no reference into the original ("$blob"),
# each blob file is named in it, and a blob file changed on disk reaches the built file.
# The files are taken REBYTE_TEST_JOBS at a time (default 2); `dump_files.sh --one FILE` checks one.
. "$(dirname "$0")/../lib.sh"
fails=0 checked=0

# One file: prints "checked", "skipped" (not a format rebyte reads) or FAIL lines.
one_file() {
    f=$1
    "$rebyte" info "$f" >/dev/null 2>&1 || { echo "skipped $f"; return; }
    mkdir "$tmp/d"
    "$rebyte" dump "$f" --blobs=files -o "$tmp/d/model.json" 2>/dev/null || { fail "dump $f"; return; }
    grep -q '"\$blob"' "$tmp/d/model.json" && fail "$f: the dump still refers to the original"
    named=$(grep -o '"\$file": *"[^"]*"' "$tmp/d/model.json" | wc -l)
    present=$(find "$tmp/d" -type f ! -name model.json | wc -l)
    [ "$named" -eq "$present" ] || fail "$f: $named files named, $present written"
    # built in another folder than the dump's: the files are found beside the JSON
    # a race recording (ghost, replay, a map's validation ghost) is written only beside its original
    # (docs/usage.md "Race recordings"): refused without it, with the message saying so
    if ! (cd "$tmp" && "$rebyte" build d/model.json -o "$tmp/built" 2>"$tmp/build.err"); then
        grep -q "race recording" "$tmp/build.err" || { fail "build $f: $(cat "$tmp/build.err")"; return; }
        [ -e "$tmp/built" ] && { fail "build $f: a refused build left a file"; return; }
        (cd "$tmp" && "$rebyte" build --source "$f" d/model.json -o "$tmp/built") || { fail "build --source $f"; return; }
    fi
    cmp -s "$tmp/built" "$f" || fail "$f: dump --blobs=files -> build is not byte-exact"
    [ "$fails" -eq 0 ] && echo "checked $f"
}
if [ "${1:-}" = "--one" ]; then
    one_file "$2"
    exit 0
fi

shared=${REBYTE_SHARED:-$src/../shared}
find "$src/samples" -type f ! -name '*.json' ! -name '*.md' -print0 >"$tmp/files"
if [ -d "$shared/corpus" ]; then
    find "$shared/corpus" -type f ! -name 'MANIFEST*' -print0 >>"$tmp/files"
else
    echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); samples only"
fi
REBYTE="$rebyte" xargs -0 -n 1 -P "${REBYTE_TEST_JOBS:-2}" sh "$0" --one <"$tmp/files" >"$tmp/results" 2>&1
grep '^FAIL ' "$tmp/results"
fails=$(grep -c '^FAIL ' "$tmp/results")
checked=$(grep -c '^checked ' "$tmp/results")
taken=$(grep -c '^checked \|^skipped \|^FAIL ' "$tmp/results")
[ "$checked" -gt 0 ] || fail "no file was checked"
[ "$taken" -ge "$(tr -cd '\000' <"$tmp/files" | wc -c)" ] || fail "a file was not taken (a run was lost)"
# an edited blob file reaches the output, and nothing else changes: the map thumbnail of the
# map-extras sample, one byte flipped, is what a dump of the built map gives back
map=$src/samples/gbx_mapextra/extras.Map.Gbx
rm -rf "$tmp/e" "$tmp/f" && mkdir "$tmp/e" "$tmp/f"
"$rebyte" dump "$map" --blobs=files -o "$tmp/e/map.json" 2>/dev/null
thumb=$(find "$tmp/e/map.files" -name '*-thumbnail.jpg' | head -1)
if [ -n "$thumb" ]; then
    printf '\377' | dd of="$thumb" bs=1 seek=5 conv=notrunc 2>/dev/null
    "$rebyte" build "$tmp/e/map.json" -o "$tmp/edited.Gbx" || fail "build after editing $thumb"
    "$rebyte" dump "$tmp/edited.Gbx" --blobs=files -o "$tmp/f/map.json" 2>/dev/null
    cmp -s "$thumb" "$tmp/f/map.files/$(basename "$thumb")" || fail "the edited thumbnail did not reach the built map"
    cmp -s "$tmp/edited.Gbx" "$map" && fail "the built map equals the original after the edit"
    [ "$(cmp -l "$tmp/edited.Gbx" "$map" | wc -l)" -eq 1 ] || fail "the edit changed more than one byte of the map"
else
    fail "the map-extras sample's dump has no thumbnail file"
fi
echo "$checked files: dump --blobs=files -> build exact; $fails failures"
[ "$fails" -eq 0 ]
