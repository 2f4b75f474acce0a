#!/bin/sh
# Assets out and in (docs/usage.md "Assets"): `rebyte extract` on every sample and corpus file of
# the formats with assets writes files an independent decoder opens (tests/cli/assets_check.py), as
# many as the model holds; every replaceable asset put back unchanged gives the file byte for
# byte; an edited thumbnail, texture, sound and object table are put back (replace and a patch's
# {"$file"}), verified, and extracted again as edited; what does not fit is refused clearly.
. "$(dirname "$0")/../lib.sh"
shared=${REBYTE_SHARED:-$src/../shared}
check="python3 $src/tests/cli/assets_check.py"
fails=0 extracted=0 identical=0

files="$src/samples/gbx/sample.Map.Gbx $src/samples/gbx_mapextra/extras.Map.Gbx $src/samples/gbx_ghost/minimal.Replay.Gbx
$src/samples/gbx_item/marker.Item.Gbx $src/samples/tres/box.tpa $src/samples/tres/box-130.pid
$src/samples/streamer/stunt-park.map $src/samples/streamer/safehouse.map"
if [ -d "$shared/corpus" ]; then
    files="$files $(find "$shared/corpus/gbx" "$shared/corpus/tres" -type f \( -name '*.[Gg]bx' -o -name '*.tpa' -o -name '*.pid' \) | sort)"
else
    echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); samples only"
fi

# Every replaceable asset of $1 (extracted in $2) put back unchanged, each by `replace`
# (arguments $3 added): the same bytes, every failing asset named.
put_back_each() {
    python3 -c "
import json, sys
for a in json.load(open(sys.argv[1]))['assets']:
    if a['replaceable']: print(a['path'] + '	' + a['file'])" "$2/manifest.json" | while IFS='	' read -r path file; do
        if ! "$rebyte" replace "$1" "$path" "$2/$file" $3 -o "$tmp/back" -q 2>"$tmp/err"; then
            echo "FAIL $1: $path: $(cat "$tmp/err")"
        elif ! cmp -s "$tmp/back" "$1"; then
            echo "FAIL $1: $path put back unchanged is not the same file"
        else
            echo ok
        fi
    done >"$tmp/back.log"
    grep FAIL "$tmp/back.log" && fails=$((fails + $(grep -c FAIL "$tmp/back.log")))
    identical=$((identical + $(grep -c '^ok' "$tmp/back.log")))
}

# The same law with one read and write of $1: the first replaceable asset put back by `replace`,
# then all of them at once by a patch of {"$file"} values (docs/usage.md "Assets": a patch does
# what replace does), so a file with many assets is not read, written and verified once per
# asset. Either differing from the file, each asset is put back alone to name the one at fault.
# The patch and the first asset ($2/back.patch.json, $2/first.tsv) are written by the batch check.
put_back_unchanged() {
    IFS='	' read -r path file count <"$2/first.tsv" || return 0 # no replaceable asset
    if "$rebyte" replace "$1" "$path" "$2/$file" -o "$tmp/back" -q 2>"$tmp/err" && cmp -s "$tmp/back" "$1" &&
        "$rebyte" apply "$2/back.patch.json" "$1" -o "$tmp/back" -q 2>"$tmp/err" && cmp -s "$tmp/back" "$1"; then
        identical=$((identical + count))
    else
        put_back_each "$1" "$2" ""
        grep -q FAIL "$tmp/back.log" || fail "$1: each asset put back alone gives the file, all at once not: $(cat "$tmp/err")"
    fi
}

# Every file extracted, then every folder checked by one python (assets_check.py --batch, which
# writes each folder's put-back patch too), then each file's assets put back.
n=0
: >"$tmp/folders"
: >"$tmp/extracted"
for f in $files; do
    n=$((n + 1))
    out=$tmp/x$n
    "$rebyte" extract "$f" -o "$out" -q 2>"$tmp/err" || { fail "extract $f: $(cat "$tmp/err")"; continue; }
    "$rebyte" dump "$f" --blobs=omit -o "$out.model.json" 2>/dev/null
    case "$f" in
    *.map) printf '%s\t--expect-csv-rows\t%s\n' "$out" "$(grep -c '"id": "_Obj"' "$out.model.json")" ;;
    *) printf '%s\t--model\t%s\n' "$out" "$out.model.json" ;;
    esac >>"$tmp/folders"
    extracted=$((extracted + $(find "$out" -type f ! -name manifest.json | wc -l)))
    printf '%s\t%s\n' "$f" "$out" >>"$tmp/extracted"
done
$check --batch "$tmp/folders"
fails=$((fails + $?))
while IFS='	' read -r f out <&3; do
    put_back_unchanged "$f" "$out"
    rm -rf "$out" "$out.model.json"
done 3<"$tmp/extracted"

# --only keeps one kind
"$rebyte" extract "$src/samples/tres/box.tpa" -o "$tmp/only" --only image -q && [ ! -d "$tmp/only/sounds" ] ||
    fail "--only image still wrote sounds"

# ---- Trespasser textures: the crate pair (.spz + .pid) ----
spz=$src/samples/tres/crate-130.spz pid=$src/samples/tres/crate-130.pid
"$rebyte" extract "$spz" --with "$pid" -o "$tmp/crate" -q || fail "extract crate textures"
$check "$tmp/crate" || fails=$((fails + 1))
[ "$(ls "$tmp/crate/textures" | wc -l)" -eq 2 ] || fail "crate: 2 textures expected, got $(ls "$tmp/crate/textures")"
put_back_each "$spz" "$tmp/crate" "--with $pid"
"$rebyte" extract "$spz" -o "$tmp/nopid" -q 2>"$tmp/err" && fail "an .spz without its .pid extracted"
grep -q "pid" "$tmp/err" || fail "an .spz without its .pid: the error does not say what is missing"
# the 8x8 texture repainted with palette colours (blue and white, not where they were)
w=8 h=8 hex=
for y in 0 1 2 3 4 5 6 7; do for x in 0 1 2 3 4 5 6 7; do
    if [ $(((x + y) % 2)) -eq 0 ]; then hex=${hex}0000ffff; else hex=${hex}ffffffff; fi
done; done
$check --write-png "$tmp/edited.png" 8 8 "$hex"
"$rebyte" replace "$spz" /swap/texels/0 "$tmp/edited.png" --with "$pid" -o "$tmp/edited.spz" -q || fail "replace a texture"
"$rebyte" verify -q "$tmp/edited.spz" >/dev/null || fail "the edited .spz does not verify"
"$rebyte" extract "$tmp/edited.spz" --with "$pid" -o "$tmp/crate2" -q
got=$($check --png-pixels "$tmp/crate2"/textures/0000-*.png | cut -d' ' -f3- | tr -d ' ')
[ "$got" = "$hex" ] || fail "the replaced texture does not come out as edited"
cmp -s "$tmp/crate/textures/0001-1234ABCD-4x4.png" "$tmp/crate2/textures/0001-1234ABCD-4x4.png" ||
    fail "replacing texture 0 changed texture 1"
$check --write-png "$tmp/off.png" 8 8 "$(echo "$hex" | sed 's/^0000ffff/123456ff/')"
"$rebyte" replace "$spz" /swap/texels/0 "$tmp/off.png" --with "$pid" -o "$tmp/off.spz" 2>"$tmp/err" &&
    fail "a colour outside the palette was accepted"
grep -q "pixel (0, 0) is #123456" "$tmp/err" || fail "the palette error does not name the pixel: $(cat "$tmp/err")"
[ ! -e "$tmp/off.spz" ] || fail "a refused replace wrote its output"

# ---- a map thumbnail: another JPEG, by replace and by a patch's {"$file"} ----
map=$src/samples/gbx_mapextra/extras.Map.Gbx
"$rebyte" extract "$map" -o "$tmp/m" -q
thumb=$(python3 -c "import json;print([a['path'] for a in json.load(open('$tmp/m/manifest.json'))['assets'] if a['file'].startswith('thumbnails/')][0])")
# a new picture, as extract writes one: SOI, the orientation segment, then other JPEG bytes
python3 - "$tmp/m/thumbnails/thumbnail.jpg" "$tmp/new.jpg" "$tmp/plain.jpg" <<'PY'
import sys
old = open(sys.argv[1], 'rb').read()
segment = old[2:38]
body = b'\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00' + b'\xff\xd9'
open(sys.argv[2], 'wb').write(b'\xff\xd8' + segment + body)
open(sys.argv[3], 'wb').write(b'\xff\xd8' + body)
PY
"$rebyte" replace "$map" "$thumb" "$tmp/new.jpg" -o "$tmp/new.Map.Gbx" -q || fail "replace the thumbnail"
"$rebyte" verify -q "$tmp/new.Map.Gbx" >/dev/null || fail "the map with a new thumbnail does not verify"
"$rebyte" extract "$tmp/new.Map.Gbx" -o "$tmp/m2" -q
cmp -s "$tmp/new.jpg" "$tmp/m2/thumbnails/thumbnail.jpg" || fail "the new thumbnail does not come out as put in"
printf '[{"op": "replace", "path": "%s", "value": {"$file": "new.jpg"}}]\n' "$thumb" >"$tmp/thumb.patch.json"
(cd / && "$rebyte" apply "$tmp/thumb.patch.json" "$map" -o "$tmp/patched.Map.Gbx" -q) || fail "a patch with {\"\$file\"} at the thumbnail"
cmp -s "$tmp/patched.Map.Gbx" "$tmp/new.Map.Gbx" || fail "the patch's {\"\$file\"} did not do what replace does"
# without the orientation it must be decoded (tests/gbx/thumbnails.sh has pictures that are): these bytes are not
"$rebyte" replace "$map" "$thumb" "$tmp/plain.jpg" -o "$tmp/plain.Map.Gbx" 2>"$tmp/err" &&
    fail "a JPEG libjpeg cannot decode was accepted"
grep -q "not a JPEG libjpeg reads" "$tmp/err" || fail "the decoding error does not say why: $(cat "$tmp/err")"
"$rebyte" replace "$map" /header/none "$tmp/new.jpg" -o "$tmp/x.Map.Gbx" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "not the path of an asset" "$tmp/err" || fail "replace at a path that is no asset's"

# ---- a sound: other samples of the same format ----
tpa=$src/samples/tres/box.tpa
"$rebyte" extract "$tpa" -o "$tmp/s" -q
python3 - "$tmp/s/sounds/body-0000-missing.wav" "$tmp/louder.wav" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
at = d.index(b'data') + 8
samples = bytes(range(1, 33))  # 16 new 16-bit samples, twice as many as before
d = d[:at - 4] + struct.pack('<I', len(samples)) + samples
d[4:8] = struct.pack('<I', len(d) - 8)
open(sys.argv[2], 'wb').write(d)
PY
"$rebyte" replace "$tpa" /bodies/0/samples "$tmp/louder.wav" -o "$tmp/louder.tpa" -q || fail "replace a sound"
"$rebyte" extract "$tmp/louder.tpa" -o "$tmp/s2" -q && cmp -s "$tmp/louder.wav" "$tmp/s2/sounds/body-0000-missing.wav" ||
    fail "the replaced sound does not come out as put in"

# ---- streamer: an object moved in the table ----
map=$src/samples/streamer/stunt-park.map
"$rebyte" extract "$map" -o "$tmp/o" -q
sed '2s/^0,0,1634,400.0,/0,0,1634,401.5,/' "$tmp/o/objects/objects.csv" >"$tmp/moved.csv"
"$rebyte" replace "$map" /groups "$tmp/moved.csv" -o "$tmp/moved.map" -q || fail "replace the objects table"
"$rebyte" extract "$tmp/moved.map" -o "$tmp/o2" -q && cmp -s "$tmp/moved.csv" "$tmp/o2/objects/objects.csv" ||
    fail "the moved object does not come out moved"

echo "assets: $n files, $extracted files extracted, $identical assets put back unchanged byte for byte, $fails failures"
[ "$fails" -eq 0 ]
