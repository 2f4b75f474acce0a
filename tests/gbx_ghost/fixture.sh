#!/bin/sh
# Ghost sample authored as JSON (samples/gbx_ghost/minimal.Ghost.json), built by rebyte:
# it must verify, read back the values written, hold a real zlib stream for its samples (checked
# with Python's zlib, outside the tool), re-encode that stream when the samples are authored anew, refuse a patch
# that changes the ghost (a race recording),
# refuse inconsistent or wrongly versioned models, and fail cleanly on every truncation.
. "$(dirname "$0")/../lib.sh"
here=$src/tests/gbx_ghost
fail() { echo "FAIL: $*"; exit 1; }
has_python=0
command -v python3 >/dev/null 2>&1 && has_python=1

"$rebyte" build --new-recording "$src/samples/gbx_ghost/minimal.Ghost.json" -o "$tmp/g.Ghost.Gbx" || fail "build of the sample"
"$rebyte" verify "$tmp/g.Ghost.Gbx" >/dev/null || fail "the built sample does not verify"
"$rebyte" dump "$tmp/g.Ghost.Gbx" -o "$tmp/g.json" || fail "dump"
"$rebyte" dump --blobs=base64 "$tmp/g.Ghost.Gbx" -o "$tmp/g64.json" || fail "dump --blobs=base64"
grep -q '"raceTime": 12345' "$tmp/g.json" || fail "raceTime did not come back"
grep -q '"samplePeriod": 100' "$tmp/g.json" || fail "samplePeriod did not come back"
grep -q '"ghostUid": "GhostUidMadeByRebyte"' "$tmp/g.json" || fail "ghostUid did not come back"
# stateBuffer 01 02 .. 0c in base64
grep -q 'AQIDBAUGBwgJCgsM' "$tmp/g64.json" || fail "stateBuffer bytes did not come back"
# "Accelerate" is defined once in the body's id table, in chunk 025: the file holds it once
[ "$(grep -c Accelerate "$tmp/g.Ghost.Gbx")" = 1 ] || fail "input name stored more than once"

# content layout: savedMobilClassId, isFixedTimeStep, u01, samplePeriod @12, version @16,
# stateBuffer size @20, its bytes from @24
if [ $has_python = 1 ]; then
    python3 "$here/zlib_check.py" "$tmp/g.json" "$tmp/g.Ghost.Gbx" /body/chunks/0/sampleData \
        0=0x0A02B000 12=100 16=16 || fail "the sample stream is not the zlib data described"
fi

# a patch never changes a race recording (docs/usage.md "Race recordings"): refused, nothing written
cat > "$tmp/patch.json" <<'P'
[
  {"op": "replace", "path": "/body/chunks/0/sampleData/samplePeriod", "value": 50},
  {"op": "replace", "path": "/body/chunks/0/sampleData/stateBuffer", "value": {"$hex": "0102030405060708090a0b0c0d0e0f10"}},
  {"op": "replace", "path": "/body/chunks/0/sampleData/numSamples", "value": 4}
]
P
"$rebyte" apply "$tmp/patch.json" "$tmp/g.Ghost.Gbx" -o "$tmp/refused.Gbx" 2>"$tmp/err" && fail "a patch changed a ghost"
grep -q "race recording" "$tmp/err" || fail "the refusal does not say why: $(cat "$tmp/err")"
[ -e "$tmp/refused.Gbx" ] && fail "a refused ghost edit was written"
printf '[{"op":"replace","path":"/body/chunks/1/ghostNickname","value":"someone else"}]' > "$tmp/nick.json"
"$rebyte" apply "$tmp/nick.json" "$tmp/g.Ghost.Gbx" -o "$tmp/refused.Gbx" 2>/dev/null && fail "a ghost's nickname was changed"
"$rebyte" verify "$tmp/g.Ghost.Gbx" >/dev/null || fail "the ghost no longer verifies"

# the writer re-encodes an edited samples stream: a new ghost authored as JSON (a fixture made
# by the project, not a changed record) with a new period and one more sample
sed -e 's/"samplePeriod": 100/"samplePeriod": 50/' -e 's/"numSamples": 3/"numSamples": 4/' \
    -e 's/"stateBuffer": {"$hex": "0102030405060708090a0b0c"}/"stateBuffer": {"$hex": "0102030405060708090a0b0c0d0e0f10"}/' \
    "$src/samples/gbx_ghost/minimal.Ghost.json" > "$tmp/e.json.in"
"$rebyte" build --new-record "$tmp/e.json.in" -o "$tmp/e.Ghost.Gbx" 2>"$tmp/err" || fail "build of the edited ghost: $(cat "$tmp/err")"
"$rebyte" verify "$tmp/e.Ghost.Gbx" >/dev/null || fail "the edited ghost does not verify"
"$rebyte" dump "$tmp/e.Ghost.Gbx" -o "$tmp/e.json" || fail "dump of the edited ghost"
grep -q '"samplePeriod": 50' "$tmp/e.json" || fail "the edit did not persist"
grep -q '"content_size": 56' "$tmp/e.json" || fail "the re-encoded stream has not grown by the 4 added bytes"
if [ $has_python = 1 ]; then
    python3 "$here/zlib_check.py" "$tmp/e.json" "$tmp/e.Ghost.Gbx" /body/chunks/0/sampleData \
        12=50 20=16 36=0x100F0E0D || fail "the re-encoded stream does not hold the edit"
fi

# the replay sample: header chunks, an embedded map (a GBX file inside chunk 002), the ghost as
# a node of chunk 014. A patch of the replay (its map included) is refused; a replay authored
# with a longer map name gets the embedded file's size right.
"$rebyte" build --new-record "$src/samples/gbx_ghost/minimal.Replay.json" -o "$tmp/r.Replay.Gbx" || fail "build of the replay sample"
"$rebyte" verify "$tmp/r.Replay.Gbx" >/dev/null || fail "the replay sample does not verify"
printf '[{"op":"replace","path":"/body/chunks/0/map/body/chunks/0/mapName","value":"another"}]' > "$tmp/map.json"
"$rebyte" apply "$tmp/map.json" "$tmp/r.Replay.Gbx" -o "$tmp/refused.Gbx" 2>/dev/null && fail "a patch changed a replay's map"
[ -e "$tmp/refused.Gbx" ] && fail "a refused replay edit was written"
sed 's/"mapName": "Map made by rebyte"/"mapName": "A longer map name, edited inside the replay"/' \
    "$src/samples/gbx_ghost/minimal.Replay.json" > "$tmp/r2.json.in"
"$rebyte" build --new-record "$tmp/r2.json.in" -o "$tmp/r2.Replay.Gbx" || fail "build of the replay with a longer map name"
"$rebyte" dump "$tmp/r2.Replay.Gbx" -o "$tmp/r2.json" || fail "dump of the edited replay"
grep -q '"mapName": "A longer map name, edited inside the replay"' "$tmp/r2.json" || fail "the map name edit did not persist"
grep -q '"ghostNickname": "rebyte"' "$tmp/r2.json" || fail "the replay's ghost did not survive the map edit"
if [ $has_python = 1 ]; then
    # outside the tool: the u32 before the embedded "GBX" is its size, and chunk 0x03093014 follows it
    python3 - "$tmp/r2.Replay.Gbx" <<'PY' || fail "the embedded map's size does not match its bytes"
import struct, sys
d = open(sys.argv[1], 'rb').read()
p = d.index(b'GBX', 1)
n = struct.unpack_from('<I', d, p - 4)[0]
sys.exit(0 if d[p + n:p + n + 4] == bytes.fromhex('14300903') and b'edited inside' in d[p:p + n] else 1)
PY
fi

# models the description must refuse
sed 's/"recordingContext": "TimeAttack"/"recordingContext": "TimeAttack", "ghostTrigram": "XYZ"/' \
    "$src/samples/gbx_ghost/minimal.Ghost.json" > "$tmp/bad1.json"
if "$rebyte" build --new-record "$tmp/bad1.json" -o "$tmp/bad1.Gbx" 2>"$tmp/err"; then fail "a v2 appearance chunk accepted a v6 field"; fi
grep -q ghostTrigram "$tmp/err" || fail "the refusal does not name the field: $(cat "$tmp/err")"
sed 's/"sizePerSample": 4/"sizePerSample": -1/' "$src/samples/gbx_ghost/minimal.Ghost.json" > "$tmp/bad2.json"
if "$rebyte" build --new-record "$tmp/bad2.json" -o "$tmp/bad2.Gbx" 2>"$tmp/err"; then fail "per-sample sizes missing but accepted"; fi
grep -q sampleSizes "$tmp/err" || fail "the refusal does not name sampleSizes: $(cat "$tmp/err")"

# truncations: never a crash. Inside the header and the first chunk (its sample stream ends at
# byte 81) every cut is an error. Later cuts of this uncompressed ('U') body cannot be told from
# a shorter body: the main node then keeps the cut chunk as its opaque tail and writes it back.
size=$(wc -c < "$tmp/g.Ghost.Gbx")
n=1 refused=0
while [ $n -lt "$size" ]; do
    head -c $n "$tmp/g.Ghost.Gbx" > "$tmp/t.Gbx"
    "$rebyte" verify "$tmp/t.Gbx" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -lt 128 ] || fail "truncated at $n bytes: crashed (exit $rc)"
    [ $rc -ne 0 ] && refused=$((refused + 1))
    [ $n -ge 81 ] || [ $rc -ne 0 ] || fail "truncated at $n bytes (inside the first chunk) but verified"
    n=$((n + 1))
done
echo "ghost fixture: ok ($size-byte sample; $refused of $((size - 1)) truncations refused, none crashed)"
