#!/bin/sh
# The streamer samples through the command line: each map in samples/streamer is built from its
# JSON (`rebyte build`) to exactly the committed .map, verifies, and survives dump + build; the
# sample patches apply and get fresh checksums; a stale checksum is reported by `verify` and kept
# by `rewrite`; damaged files end in clean errors that name the chunk and its offset.
. "$(dirname "$0")/../lib.sh"
samples=$src/samples/streamer
ok() { echo "ok   $*"; }
run() { # run EXPECTED_EXIT command...: output in $tmp/out, $tmp/err
    want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    [ "$got" -eq "$want" ] || { echo "    exit $got, expected $want: $*"; sed 's/^/    /' "$tmp/err" | head -5; return 1; }
}

for json in "$samples"/*.json; do
    case "$json" in *.patch.json) continue ;; esac
    name=$(basename "$json" .json)
    map=$samples/$name.map
    if run 0 "$rebyte" build "$json" -o "$tmp/$name.map" && cmp -s "$tmp/$name.map" "$map"; then
        ok "$name: the JSON builds the committed map"
    else
        fail "$name: the JSON does not build the committed map (rebuild it with rebyte build)"
    fi
    run 0 "$rebyte" verify "$map" && ok "$name: verify exact" || fail "$name: verify"
    grep -q "note:" "$tmp/out" && fail "$name: a sample has deviations"
    if run 0 "$rebyte" dump "$map" -o "$tmp/$name.dump.json" && run 0 "$rebyte" build "$tmp/$name.dump.json" -o "$tmp/$name.rebuilt" &&
        cmp -s "$map" "$tmp/$name.rebuilt"; then
        ok "$name: dump + build gives the same bytes"
    else
        fail "$name: dump + build"
    fi
done

run 0 "$rebyte" info --json "$samples/stunt-park.map" && grep -q '"groups":2' "$tmp/out" && grep -q '"_Obj":4' "$tmp/out" &&
    ok "info summarises groups and chunks" || fail "info: $(cat "$tmp/out")"

# The patches, on the stunt park.
park=$samples/stunt-park.map
for patch in move-objects change-models add-pickup; do
    if run 0 "$rebyte" apply "$samples/$patch.patch.json" "$park" -o "$tmp/$patch.map" &&
        run 0 "$rebyte" verify "$tmp/$patch.map" && ! grep -q "note:" "$tmp/out"; then
        ok "$patch: applies, verifies, every checksum fresh"
    else
        fail "$patch"
    fi
    run 1 "$rebyte" diff "$park" "$tmp/$patch.map" || fail "$patch: diff sees no change"
done
run 0 "$rebyte" dump "$tmp/move-objects.map" -o "$tmp/moved.json" && grep -q '"y": 2.54e+03\|"y": 2540' "$tmp/moved.json" ||
    fail "move-objects: the object did not move"
run 0 "$rebyte" dump "$tmp/add-pickup.map" -o "$tmp/added.json" && grep -q '"modelId": 1247' "$tmp/added.json" ||
    fail "add-pickup: no new pickup"
[ "$(grep -c '"id": "Pckp"' "$tmp/added.json")" -eq 3 ] || fail "add-pickup: expected three pickups"

# A stale checksum on the first object (chunk 3).
# Offsets from the map itself: magic 11, then chunks of 10 + size bytes.
offset=11
for i in 0 1 2; do
    size=$(od -An -tu2 -j "$offset" -N2 "$park" | tr -d ' ')
    offset=$((offset + 10 + size))
done
size=$(od -An -tu2 -j "$offset" -N2 "$park" | tr -d ' ')
crc_at=$((offset + 6 + size))
cp "$park" "$tmp/stale.map"
printf '\377\377\377\377' | dd of="$tmp/stale.map" bs=1 seek="$crc_at" conv=notrunc 2>/dev/null
if run 0 "$rebyte" verify "$tmp/stale.map" && grep -q "note: .*chunk 3 \"_Obj\".*0xFFFFFFFF.*kept while the data is unchanged" "$tmp/out"; then
    ok "verify reports a stale checksum"
else
    fail "verify does not report the stale checksum: $(cat "$tmp/out")"
fi
run 0 "$rebyte" verify --json "$tmp/stale.map" && grep -q '"notes":\[' "$tmp/out" || fail "verify --json lists notes"
run 0 "$rebyte" rewrite "$tmp/stale.map" -o "$tmp/stale2.map" && cmp -s "$tmp/stale.map" "$tmp/stale2.map" &&
    ok "rewrite keeps the stale checksum" || fail "rewrite changed the stale file"
if run 0 "$rebyte" apply "$samples/move-objects.patch.json" "$tmp/stale.map" -o "$tmp/stale-moved.map" &&
    run 0 "$rebyte" verify "$tmp/stale-moved.map" && ! grep -q "note:" "$tmp/out"; then
    ok "an edited chunk gets a fresh checksum"
else
    fail "the edited chunk kept its stale checksum"
fi

# Damage: clean errors naming the chunk and the offset, exit 2, no output file.
head -c 100 "$park" >"$tmp/cut.map"
if run 2 "$rebyte" rewrite "$tmp/cut.map" -o "$tmp/never.map" && grep -q 'chunk [0-9]* ".*" @0x' "$tmp/err"; then
    ok "a cut file is refused with the chunk and its offset"
else
    fail "cut file: $(cat "$tmp/err")"
fi
[ -e "$tmp/never.map" ] && fail "partial output written"
cp "$park" "$tmp/tail.map" && printf 'junk' >>"$tmp/tail.map"
run 2 "$rebyte" verify "$tmp/tail.map" && grep -q 'nothing may follow _EOF' "$tmp/out" && ok "data after _EOF refused" ||
    fail "data after _EOF: $(cat "$tmp/out")"

[ "$fails" -eq 0 ] && echo "streamer samples: all passed"
[ "$fails" -eq 0 ]
