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

# the maps whose ChallengeParameters have chunk 0x0305B00D (26; 8 of them hold a ghost, the
# others a null reference): every ghost typed down to its samples
with_chunk=0 with_ghost=0
for f in "$corpus"/*.Map.Gbx "$corpus"/*.Challenge.Gbx; do
    "$rebyte" dump "$f" -o "$tmp/m.json" 2>/dev/null || { fail "dump $(basename "$f")"; continue; }
    kept=$(python3 "$here/bytes_chunks.py" "$tmp/m.json")
    [ -z "$kept" ] || fail "$(basename "$f"): ghost chunks kept as bytes: $kept"
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
    kept=$(python3 "$here/bytes_chunks.py" "$tmp/r.json")
    [ -z "$kept" ] || fail "$(basename "$f"): ghost or replay chunks kept as bytes: $kept"
done

# race recordings are never written changed (docs/usage.md "Race recordings"): on every corpus ghost
# and replay a patch of the nickname or the race time is refused, nothing is written, and the
# file still verifies exactly
refused=0
for f in "$corpus"/*.Ghost.Gbx "$corpus"/*.Replay.Gbx; do
    [ -f "$f" ] || continue
    "$rebyte" dump "$f" -o "$tmp/m.json" 2>/dev/null || continue
    path=$(python3 - "$tmp/m.json" <<'PY'
import json, sys
def find(n, p):
    if isinstance(n, dict):
        for k in ("ghostNickname", "raceTime", "playerNickname", "nickname"):
            if k in n and not isinstance(n[k], (dict, list)):
                return p + "/" + k
        for k, v in n.items():
            r = find(v, p + "/" + k)
            if r: return r
    if isinstance(n, list):
        for i, v in enumerate(n):
            r = find(v, p + "/" + str(i))
            if r: return r
print(find(json.load(open(sys.argv[1])), "") or "")
PY
)
    [ -n "$path" ] || continue
    printf '[{"op":"replace","path":"%s","value":1234}]' "$path" | sed 's/"value":1234/"value":"someone else"/' > "$tmp/p.json"
    case $path in */raceTime) printf '[{"op":"replace","path":"%s","value":1234}]' "$path" > "$tmp/p.json" ;; esac
    rm -f "$tmp/e.Gbx"
    if "$rebyte" apply "$tmp/p.json" "$f" -o "$tmp/e.Gbx" 2>"$tmp/err"; then fail "$(basename "$f"): $path was changed"
    elif ! grep -q "race recording" "$tmp/err"; then fail "$(basename "$f"): refused without saying why: $(cat "$tmp/err")"
    elif [ -e "$tmp/e.Gbx" ]; then fail "$(basename "$f"): a refused record was written"
    else refused=$((refused + 1)); fi
    "$rebyte" verify -q "$f" >/dev/null || fail "$(basename "$f") does not verify"
done
[ $refused -ge 10 ] || fail "only $refused record edits were tried and refused"

# a map with a validation ghost: the map may be edited (the ghost unchanged), its ghost not
for f in "$corpus"/*.Gbx; do
    "$rebyte" dump "$f" -o "$tmp/m.json" 2>/dev/null || continue
    grep -q '"raceValidateGhost": {' "$tmp/m.json" && grep -q '"ghostNickname"' "$tmp/m.json" || continue
    grep -q '"classId": "0x03043000"' "$tmp/m.json" || continue
    ghost=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for i, c in enumerate(d["body"]["chunks"]):
    for j, p in enumerate(c.get("challengeParameters", {}).get("chunks", [])):
        for k, g in enumerate(p.get("raceValidateGhost", {}).get("chunks", [])):
            if "ghostNickname" in g: print(f"/body/chunks/{i}/challengeParameters/chunks/{j}/raceValidateGhost/chunks/{k}/ghostNickname")
' "$tmp/m.json" | head -1)
    [ -n "$ghost" ] || continue
    printf '[{"op":"replace","path":"%s","value":"someone else"}]' "$ghost" > "$tmp/p.json"
    "$rebyte" apply "$tmp/p.json" "$f" -o "$tmp/e.Gbx" 2>/dev/null && fail "$(basename "$f"): its validation ghost was renamed"
    printf '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/mapName","value":"renamed map"}]' > "$tmp/p.json"
    "$rebyte" apply -q "$tmp/p.json" "$f" -o "$tmp/e.Gbx" || fail "$(basename "$f"): a map with a validation ghost cannot be renamed"
    echo "validation ghost guarded, map renamed: $(basename "$f")"
    break
done
echo "ghosts/replays: $ghosts ghost files, $with_ghost of $with_chunk maps with a validation ghost, $replays replays, $refused record edits refused; $fails failure(s)"
[ $fails -eq 0 ]
