#!/bin/sh
# Ghosts and replays of the corpus: every *.Ghost.Gbx is typed to its end (no opaque tail, no
# "typed parse stopped"); no typed parse anywhere stops inside a ghost or a replay chunk; the 8
# maps with a race-validation ghost have it typed; every replay's embedded map is part of the
# model; no ghost or replay chunk is kept as bytes; and an edit inside a real ghost's
# zlib-compressed samples is re-encoded and re-read (checked with Python's zlib, outside the
# tool, when python3 is there).
. "$(dirname "$0")/../lib.sh"
corpus=${REBYTE_SHARED:-../shared}/corpus/gbx
here=${REBYTE_SOURCE:-.}/tests/gbx_ghost
if [ ! -d "$corpus" ]; then
    echo "SKIP: corpus folder $corpus not found (set REBYTE_SHARED to the folder holding corpus/)"
    exit 77
fi

ghosts=0
for f in "$corpus"/*.Ghost.Gbx; do
    [ -f "$f" ] || continue
    ghosts=$((ghosts + 1))
    line=$("$rebyte" verify --reencode --json "$f" | head -1)
    case "$line" in *'"status":"exact"'*) ;; *) fail "$(basename "$f"): not exact: $line" ;; esac
    case "$line" in *'"opaque_tail":false'*) ;; *) fail "$(basename "$f"): keeps an opaque tail" ;; esac
    case "$line" in *'typed parse stopped'*) fail "$(basename "$f"): $line" ;; esac
done
[ $ghosts -ge 2 ] || fail "expected the corpus's 2 ghost files, found $ghosts"

# where typed parses stop, corpus-wide: never in a ghost, a replay chunk or a sample stream
"$rebyte" verify --json "$corpus" > "$tmp/verify.jsonl"
# (the notes alone: a file's JSON line also names its streams, "sampleData" among them)
if grep -o 'typed parse stopped[^"]*' "$tmp/verify.jsonl" |
   grep -E 'raceValidateGhost|> ghosts\[|sampleData|chunk 0x(0303F|03092|2401B|0911F|03093|2403F)[0-9A-F]{3} has no'; then
    fail "a typed parse stops in a ghost or replay chunk (lines above)"
fi
if grep -q 'ghost samples kept opaque' "$tmp/verify.jsonl"; then fail "ghost samples of some file stayed opaque"; fi

# every corpus file dumped once; its model checks all run on that dump in one interpreter
# (tests/gbx_ghost/corpus_dumps.py): no ghost or replay chunk of a map or replay kept as bytes;
# the maps whose ChallengeParameters have chunk 0x0305B00D (26; 8 of them hold a ghost, the
# others a null reference), every ghost typed down to its samples; every replay's map (chunk 002)
# typed as an embedded file; and the fields the edits below patch
mkdir "$tmp/dumps"
for f in "$corpus"/*.Gbx; do
    "$rebyte" dump "$f" -o "$tmp/dumps/$(basename "$f").json" 2>/dev/null || fail "dump $(basename "$f")"
done
python3 "$here/corpus_dumps.py" "$tmp/dumps" "$corpus"/*.Gbx >"$tmp/models" || fail "corpus_dumps.py stopped"
grep '^FAIL' "$tmp/models" && fails=$((fails + $(grep -c '^FAIL' "$tmp/models")))
read -r _ with_chunk with_ghost replays <<EOF_COUNTS
$(grep '^counts ' "$tmp/models")
EOF_COUNTS
[ "${with_chunk:-0}" -eq 26 ] || fail "expected 26 maps with chunk 0x0305B00D typed, found ${with_chunk:-?}"
[ "${with_ghost:-0}" -eq 8 ] || fail "expected 8 maps with a typed validation ghost, found ${with_ghost:-?}"
[ "${replays:-0}" -ge 1 ] || fail "no replay in the corpus"

# race recordings are never written changed (docs/usage.md "Race recordings"): on every corpus ghost
# and replay a patch of the nickname or the race time is refused, nothing is written, and the
# file still verifies exactly
refused=0
grep '^recording ' "$tmp/models" >"$tmp/recordings"
while read -r _ f path; do
    printf '[{"op":"replace","path":"%s","value":"someone else"}]' "$path" > "$tmp/p.json"
    case $path in */raceTime) printf '[{"op":"replace","path":"%s","value":1234}]' "$path" > "$tmp/p.json" ;; esac
    rm -f "$tmp/e.Gbx"
    if "$rebyte" apply "$tmp/p.json" "$f" -o "$tmp/e.Gbx" 2>"$tmp/err"; then fail "$(basename "$f"): $path was changed"
    elif ! grep -q "race recording" "$tmp/err"; then fail "$(basename "$f"): refused without saying why: $(cat "$tmp/err")"
    elif [ -e "$tmp/e.Gbx" ]; then fail "$(basename "$f"): a refused record was written"
    else refused=$((refused + 1)); fi
done <"$tmp/recordings"
# (one run for every file patched above)
# shellcheck disable=SC2046 # the files are separate arguments (corpus names have no spaces)
"$rebyte" verify -q $(cut -d' ' -f2 "$tmp/recordings") >"$tmp/verify_recordings" ||
    fail "a patched recording does not verify: $(grep -v ': exact' "$tmp/verify_recordings" | head -5)"
[ $refused -ge 10 ] || fail "only $refused record edits were tried and refused"

# a map with a validation ghost: the map may be edited (the ghost unchanged), its ghost not
if read -r _ f ghost <<EOF_VALIDATION
$(grep '^validation ' "$tmp/models")
EOF_VALIDATION
then
    printf '[{"op":"replace","path":"%s","value":"someone else"}]' "$ghost" > "$tmp/p.json"
    "$rebyte" apply "$tmp/p.json" "$f" -o "$tmp/e.Gbx" 2>/dev/null && fail "$(basename "$f"): its validation ghost was renamed"
    printf '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/mapName","value":"renamed map"}]' > "$tmp/p.json"
    "$rebyte" apply -q "$tmp/p.json" "$f" -o "$tmp/e.Gbx" || fail "$(basename "$f"): a map with a validation ghost cannot be renamed"
    echo "validation ghost guarded, map renamed: $(basename "$f")"
fi
echo "ghosts/replays: $ghosts ghost files, $with_ghost of $with_chunk maps with a validation ghost, $replays replays, $refused record edits refused; $fails failure(s)"
[ $fails -eq 0 ]
