#!/bin/sh
# Ghosts and replays of the corpus: every *.Ghost.Gbx is typed to its end (no opaque tail, no
# "typed parse stopped"); no typed parse anywhere stops inside a ghost or a replay chunk; the 8
# maps with a race-validation ghost have it typed; every replay's embedded map is part of the
# model; and an edit inside a real ghost's zlib-compressed samples is re-encoded and re-read
# (checked with Python's zlib, outside the tool, when python3 is there).
set -u
corpus=${REBYTE_SHARED:-../shared}/corpus/gbx
rebyte=${REBYTE:-rebyte}
here=${REBYTE_SOURCE:-.}/tests/gbx_ghost
if [ ! -d "$corpus" ]; then
    echo "SKIP: corpus folder $corpus not found (set REBYTE_SHARED to the folder holding corpus/)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

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
if grep 'typed parse stopped' "$tmp/verify.jsonl" |
   grep -E 'raceValidateGhost|> ghosts\[|sampleData|chunk 0x(0303F|03092|2401B|0911F|03093|2403F)[0-9A-F]{3} has no'; then
    fail "a typed parse stops in a ghost or replay chunk (lines above)"
fi
if grep -q 'ghost samples kept opaque' "$tmp/verify.jsonl"; then fail "ghost samples of some file stayed opaque"; fi

# the maps whose ChallengeParameters have chunk 0x0305B00D (26; 8 of them hold a ghost, the
# others a null reference): every ghost typed down to its samples
with_chunk=0 with_ghost=0
for f in "$corpus"/*.Map.Gbx "$corpus"/*.Challenge.Gbx; do
    "$rebyte" dump "$f" -o "$tmp/m.json" 2>/dev/null || { fail "dump $(basename "$f")"; continue; }
    grep -q '"raceValidateGhost": {' "$tmp/m.json" || continue
    with_chunk=$((with_chunk + 1))
    if grep -A2 '"raceValidateGhost": {' "$tmp/m.json" | grep -q '"classId"'; then
        with_ghost=$((with_ghost + 1))
        grep -q '"id": "0x0303F00[356]"' "$tmp/m.json" || fail "$(basename "$f"): validation ghost without typed samples"
    fi
done
[ $with_chunk -eq 26 ] || fail "expected 26 maps with chunk 0x0305B00D typed, found $with_chunk"
[ $with_ghost -eq 8 ] || fail "expected 8 maps with a typed validation ghost, found $with_ghost"

# every replay: exact, and its map (chunk 002) is typed as an embedded file
replays=0
for f in "$corpus"/*.Replay.Gbx; do
    replays=$((replays + 1))
    "$rebyte" dump "$f" -o "$tmp/r.json" 2>/dev/null || { fail "dump $(basename "$f")"; continue; }
    grep -q '"map": {' "$tmp/r.json" || fail "$(basename "$f"): the embedded map is not in the model"
done

# an edit inside the zlib samples of a real ghost (MP4: 100 ms period)
g="$corpus/7458497c_GBX-NET_2_CGameCtnGhost_MP4_001.Ghost.Gbx"
if [ -f "$g" ]; then
    "$rebyte" dump "$g" -o "$tmp/g.json"
    grep -q '"samplePeriod": 100' "$tmp/g.json" || fail "MP4 ghost: sample period is not 100"
    echo '[{"op":"replace","path":"/body/chunks/0/sampleData/samplePeriod","value":50}]' > "$tmp/p.json"
    "$rebyte" apply "$tmp/p.json" "$g" -o "$tmp/e.Ghost.Gbx" >/dev/null 2>"$tmp/err" || fail "apply: $(cat "$tmp/err")"
    "$rebyte" verify "$tmp/e.Ghost.Gbx" >/dev/null || fail "edited MP4 ghost does not verify"
    "$rebyte" dump "$tmp/e.Ghost.Gbx" -o "$tmp/e.json"
    grep -q '"samplePeriod": 50' "$tmp/e.json" || fail "the edited period did not persist"
    if command -v python3 >/dev/null 2>&1; then
        # the samples stream lies in the LZO body: the checker takes its bytes from the dump
        "$rebyte" dump "$tmp/e.Ghost.Gbx" --blobs=base64 -o "$tmp/e64.json"
        python3 "$here/zlib_check.py" "$tmp/e64.json" "$tmp/e.Ghost.Gbx" /body/chunks/0/sampleData 12=50 ||
            fail "the re-encoded samples do not hold the edit"
    fi
fi
echo "ghosts/replays: $ghosts ghost files, $with_ghost of $with_chunk maps with a validation ghost, $replays replays; $failed failure(s)"
[ $failed -eq 0 ]
