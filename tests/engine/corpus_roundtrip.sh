#!/bin/sh
# Corpus round trip for one format folder: every real file must come back byte for byte
# (compared with cmp, outside the tool), through `rewrite` and through `dump` + `build`;
# with re-encoded streams, the decoded content must be identical and the re-encoded file must
# parse again (`verify --reencode`, which re-reads what it wrote).
# The files are taken REBYTE_TEST_JOBS at a time (default 2, the project's machines' cores).
# Usage: corpus_roundtrip.sh FOLDER    (a folder of $REBYTE_SHARED/corpus)
#        corpus_roundtrip.sh --one FILE   (one file; what the folder run starts per file)
set -u
rebyte=${REBYTE:-rebyte}

# One file through rewrite and dump/build; prints FAIL lines, exits 1 on a failure.
one_file() {
    f=$1
    name=$(basename "$f")
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if ! "$rebyte" rewrite "$f" -o "$tmp/out" 2>"$tmp/err"; then
        echo "FAIL rewrite $name: $(cat "$tmp/err")"; exit 1
    fi
    if ! cmp -s "$f" "$tmp/out"; then
        echo "FAIL rewrite $name: $(cmp "$f" "$tmp/out" 2>&1 | head -1)"; exit 1
    fi
    if ! "$rebyte" dump "$f" -o "$tmp/model.json" 2>"$tmp/err" ||
       ! "$rebyte" build "$tmp/model.json" -o "$tmp/built" 2>>"$tmp/err"; then
        echo "FAIL dump/build $name: $(cat "$tmp/err")"; exit 1
    fi
    if ! cmp -s "$f" "$tmp/built"; then
        echo "FAIL dump/build $name: $(cmp "$f" "$tmp/built" 2>&1 | head -1)"; exit 1
    fi
    echo "ok $name"
}

if [ "${1:-}" = "--one" ]; then
    one_file "$2"
    exit 0
fi

folder=$1
corpus=${REBYTE_SHARED:-../shared}/corpus/$folder
if [ ! -d "$corpus" ]; then
    echo "SKIP: corpus folder $corpus not found (set REBYTE_SHARED to the folder holding corpus/)"
    exit 77
fi
jobs=${REBYTE_TEST_JOBS:-2}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
find "$corpus" -maxdepth 1 -type f ! -name '*.tsv' ! -name '*.md' -print0 |
    REBYTE="$rebyte" xargs -0 -n 1 -P "$jobs" sh "$0" --one >"$out" 2>&1
total=$(grep -c '^ok \|^FAIL ' "$out")
failed=$(grep -c '^FAIL ' "$out")
grep '^FAIL ' "$out"
echo "$folder: $((total - failed))/$total files exact through rewrite and dump/build"
"$rebyte" verify --reencode -q -j "$jobs" "$corpus" || failed=$((failed + 1))
[ "$total" -gt 0 ] || { echo "FAIL: no files in $corpus"; exit 1; }
[ "$total" -eq "$(find "$corpus" -maxdepth 1 -type f ! -name '*.tsv' ! -name '*.md' | wc -l)" ] ||
    { echo "FAIL: not every file was taken (a run was lost)"; exit 1; }
[ "$failed" -eq 0 ]
