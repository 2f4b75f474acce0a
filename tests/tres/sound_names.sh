#!/bin/sh
# A .tpa stores its sounds by the id of their names (docs/formats/tres.md "Hashes and ids");
# `extract --with` a file that holds the names (a level's .grf) names the sound files after them.
. "$(dirname "$0")/../lib.sh"
samples=${REBYTE_SOURCE:?}/samples/tres
# alone: only `missing`, the sound every .tpa starts with, has a name
"$rebyte" extract "$samples/box.tpa" -o "$tmp/alone" -q || fail "extract box.tpa"
[ "$(ls "$tmp/alone/sounds")" = "body-0000-missing.wav" ] || fail "box.tpa alone: $(ls "$tmp/alone/sounds")"
# a sound whose id is that of a name the companion holds: the .grf's instance name "Box-01",
# hashed lower-cased; the second id of box.tpa's one body takes it, the first stays `missing`
id=$(python3 -c 'import zlib; print(zlib.crc32(b"box-01"))')
printf '[{"op":"replace","path":"/ids/0/id","value":%s}]' "$id" > "$tmp/id.patch.json"
"$rebyte" apply "$tmp/id.patch.json" "$samples/box.tpa" -o "$tmp/named.tpa" -q || fail "apply the id"
"$rebyte" extract "$tmp/named.tpa" --with "$samples/box.grf" -o "$tmp/named" -q || fail "extract --with box.grf"
[ "$(ls "$tmp/named/sounds")" = "body-0000-Box-01.wav" ] || fail "named by box.grf: $(ls "$tmp/named/sounds")"
cmp -s "$tmp/alone/sounds/body-0000-missing.wav" "$tmp/named/sounds/body-0000-Box-01.wav" ||
    fail "the named sound is not the same sound"
grep -q '"/bodies/0/samples"' "$tmp/named/manifest.json" || fail "the manifest does not give the body's path"
# the corpus: the demo level names every sound of Stream.tpa
corpus=${REBYTE_SHARED:-}/corpus/tres
if [ -f "$corpus/Stream.tpa" ] && [ -f "$corpus/demo.grf" ]; then
    "$rebyte" extract "$corpus/Stream.tpa" --with "$corpus/demo.grf" -o "$tmp/stream" -q || fail "extract Stream.tpa"
    unnamed=$(ls "$tmp/stream/sounds" | grep -c '^body-[0-9]*\.wav$')
    [ "$unnamed" -eq 0 ] || fail "Stream.tpa: $unnamed sounds without a name"
    [ -f "$tmp/stream/sounds/body-0004-ANNEUSEGUN3.wav" ] || fail "Stream.tpa: $(ls "$tmp/stream/sounds" | head -5)"
fi
finish "tres sound names"
