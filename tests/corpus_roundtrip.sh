#!/bin/sh
# Corpus round trip for one format folder: every real file must come back byte for byte
# (compared with cmp, outside the tool), through `rewrite` and through `dump` + `build`;
# with re-encoded streams, the decoded content must be identical (`verify --reencode`).
# Usage: corpus_roundtrip.sh FOLDER    (a folder of $REBYTE_SHARED/corpus)
set -u
folder=$1
corpus=${REBYTE_SHARED:-../shared}/corpus/$folder
rebyte=${REBYTE:-rebyte}
if [ ! -d "$corpus" ]; then
    echo "SKIP: corpus folder $corpus not found (set REBYTE_SHARED to the folder holding corpus/)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0 failed=0
for f in "$corpus"/*; do
    case "$f" in *.tsv|*.md) continue ;; esac
    total=$((total + 1))
    name=$(basename "$f")
    if ! "$rebyte" rewrite "$f" -o "$tmp/out" 2>"$tmp/err"; then
        echo "FAIL rewrite $name: $(cat "$tmp/err")"; failed=$((failed + 1)); continue
    fi
    if ! cmp -s "$f" "$tmp/out"; then
        echo "FAIL rewrite $name: $(cmp "$f" "$tmp/out" 2>&1 | head -1)"; failed=$((failed + 1)); continue
    fi
    if ! "$rebyte" dump "$f" -o "$tmp/model.json" 2>"$tmp/err" ||
       ! "$rebyte" build "$tmp/model.json" -o "$tmp/built" 2>>"$tmp/err"; then
        echo "FAIL dump/build $name: $(cat "$tmp/err")"; failed=$((failed + 1)); continue
    fi
    if ! cmp -s "$f" "$tmp/built"; then
        echo "FAIL dump/build $name: $(cmp "$f" "$tmp/built" 2>&1 | head -1)"; failed=$((failed + 1)); continue
    fi
    if ! "$rebyte" rewrite --reencode "$f" -o "$tmp/re" 2>"$tmp/err" || ! "$rebyte" info "$tmp/re" >/dev/null 2>>"$tmp/err"; then
        echo "FAIL reencode $name: $(cat "$tmp/err")"; failed=$((failed + 1)); continue
    fi
done
echo "$folder: $((total - failed))/$total files exact through rewrite and dump/build"
"$rebyte" verify --reencode -q "$corpus" || failed=$((failed + 1))
[ "$total" -gt 0 ] || { echo "FAIL: no files in $corpus"; exit 1; }
[ "$failed" -eq 0 ]
