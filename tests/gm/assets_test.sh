#!/bin/sh
# data.win assets on every corpus file (the sample when the corpus is absent): test_gm_assets
# (its path is the first argument) extracts each file's assets through the format's hook, puts
# every page, sound and a spread of TPAG items back unchanged (no operations: the same file), and
# replaces a page with a larger picture and a sprite frame with pictures of another and of the
# same size (each result verified, re-read and extracted again as the new picture); then
# assets_check.py reads every PNG and WAV it wrote without rebyte and compares the counts with the
# model (docs/formats/gamemaker.md "Assets: extract and replace").
. "$(dirname "$0")/common.sh"
tester=$1
files="$src/samples/gm/sample.win"
if [ -d "$corpus" ] && ls "$corpus"/*.win >/dev/null 2>&1; then
    files="$corpus/*.win $files"
else
    echo "note: no corpus at $corpus; checking the sample alone"
fi
# shellcheck disable=SC2086
"$tester" -o "$tmp/out" $files || fail "test_gm_assets"
for win in $files; do
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/$name.json" || { fail "$name: dump"; continue; }
    python3 "$(dirname "$0")/assets_check.py" "$tmp/$name.json" "$tmp/out/$name" || fail "$name: assets"
done
[ "$fails" -eq 0 ]
