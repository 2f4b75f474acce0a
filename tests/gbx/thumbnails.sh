#!/bin/sh
# Map thumbnails from ordinary pictures (docs/formats/gbx.md "Assets"). A map stores its thumbnail
# upside down; `replace` takes a JPEG marked EXIF Orientation 4 losslessly (the segment taken out),
# and an ordinary JPEG (upright, or turned by its EXIF orientation) or PNG by decoding it, turning
# it upside down and encoding it as the game's own thumbnails are (baseline, 4:2:0). Every picture
# put back is extracted again and judged by thumbnail_check ($1: libjpeg and libpng called directly,
# none of rebyte's code): its stored pixels must be the test picture upside down, and the extracted
# file must say Orientation 4 so viewers show it upright. On the sample map (its made-up thumbnail
# first replaced by a real one) and, when the corpus is there, on one map of each size the games
# make (256, 512, 1024 pixels a side). Sizes that differ and files that are no picture are refused
# with a message, and nothing is written.
. "$(dirname "$0")/../lib.sh"
check=${1:?usage: thumbnails.sh THUMBNAIL_CHECK}
shared=${REBYTE_SHARED:-$src/../shared}
fails=0 compared=0

thumbnail_path() { # the manifest's path of the thumbnail extracted into $1
    python3 -c "import json,sys;print([a['path'] for a in json.load(open(sys.argv[1]))['assets'] if a['file'].startswith('thumbnails/')][0])" "$1/manifest.json"
}

# put_back MAP PICTURE SIDE LABEL: replace, verify, extract again, compare pixels; the result in $tmp/out.Map.Gbx
put_back() {
    rm -rf "$tmp/again" "$tmp/out.Map.Gbx"
    "$rebyte" replace "$1" "$path" "$2" -o "$tmp/out.Map.Gbx" -q 2>"$tmp/err" || { fail "$4: replace: $(cat "$tmp/err")"; return 1; }
    "$rebyte" verify -q "$tmp/out.Map.Gbx" >/dev/null || fail "$4: the map does not verify"
    "$rebyte" extract "$tmp/out.Map.Gbx" -o "$tmp/again" -q || { fail "$4: extract again"; return 1; }
    got=$("$check" info "$tmp/again/thumbnails/thumbnail.jpg")
    [ "$got" = "${3}x$3 baseline 2x2 orientation 4" ] || fail "$4: the extracted thumbnail is \"$got\""
    "$check" compare "$tmp/again/thumbnails/thumbnail.jpg" "$3" "$3" upside-down >"$tmp/cmp" ||
        fail "$4: the stored pixels are not the picture upside down: $(cat "$tmp/cmp")"
    compared=$((compared + 1))
}

# refused MAP FILE WORDS LABEL: replace fails with exit 2, says WORDS, writes nothing
refused() {
    "$rebyte" replace "$1" "$path" "$2" -o "$tmp/no.Map.Gbx" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "$4: exit $rc, not 2"
    grep -q "$3" "$tmp/err" || fail "$4: the message does not say \"$3\": $(cat "$tmp/err")"
    [ ! -e "$tmp/no.Map.Gbx" ] || fail "$4: a refused replace wrote its output"
}

# every route on a map whose thumbnail is SIDE pixels a side
every_route() {
    map=$1 side=$2 label=$3
    "$check" jpeg "$tmp/plain.jpg" "$side" "$side" && "$check" png "$tmp/p.png" "$side" "$side" || fail "$label: make pictures"
    put_back "$map" "$tmp/plain.jpg" "$side" "$label: plain JPEG"
    cp "$tmp/out.Map.Gbx" "$tmp/by-replace.Map.Gbx" 2>/dev/null
    printf '[{"op": "replace", "path": "%s", "value": {"$file": "plain.jpg"}}]\n' "$path" >"$tmp/thumb.patch.json"
    (cd / && "$rebyte" apply "$tmp/thumb.patch.json" "$map" -o "$tmp/by-patch.Map.Gbx" -q) &&
        cmp -s "$tmp/by-patch.Map.Gbx" "$tmp/by-replace.Map.Gbx" || fail "$label: a patch's {\"\$file\"} differs from replace"
    put_back "$map" "$tmp/p.png" "$side" "$label: PNG"
    for o in 3 6 8; do # a camera's picture: pixels stored turned, the EXIF says how to show them
        "$check" jpeg "$tmp/turned.jpg" "$side" "$side" "$o" && put_back "$map" "$tmp/turned.jpg" "$side" "$label: EXIF orientation $o"
    done
    other=$((side == 512 ? 256 : 512))
    "$check" jpeg "$tmp/other.jpg" "$other" "$other" && refused "$map" "$tmp/other.jpg" "${side}x$side" "$label: a ${other}x$other JPEG"
    "$check" png "$tmp/other.png" "$other" "$other" && refused "$map" "$tmp/other.png" "${side}x$side" "$label: a ${other}x$other PNG"
}

# ---- the sample map: its made-up thumbnail replaced by a real one, the lossless way ----
map=$src/samples/gbx_mapextra/extras.Map.Gbx
"$rebyte" extract "$map" -o "$tmp/e" -q || fail "extract the sample"
path=$(thumbnail_path "$tmp/e")
"$check" jpeg "$tmp/marked.jpg" 256 256 4 # stored upside down, marked Orientation 4: as extract writes one
put_back "$map" "$tmp/marked.jpg" 256 "sample: JPEG marked Orientation 4"
# lossless: what the map stores is the file without its EXIF segment, byte for byte
python3 - "$tmp/marked.jpg" "$tmp/again/thumbnails/thumbnail.jpg" <<'PY' || fail "sample: the marked JPEG was not stored as it was"
import sys
def without_exif(d):
    at = 2
    while d[at] == 0xFF and 0xE0 <= d[at + 1] <= 0xEF:
        n = int.from_bytes(d[at + 2:at + 4], 'big')
        if d[at + 1] == 0xE1 and d[at + 4:at + 10] == b'Exif\0\0':
            return d[:at] + d[at + 2 + n:]
        at += 2 + n
    sys.exit("no EXIF segment")
a, b = (open(p, 'rb').read() for p in sys.argv[1:3])
sys.exit(0 if without_exif(a) == without_exif(b) else 1)
PY
cp "$tmp/out.Map.Gbx" "$tmp/real.Map.Gbx"
every_route "$tmp/real.Map.Gbx" 256 "sample"
printf 'not a picture\n' >"$tmp/text.jpg"
refused "$tmp/real.Map.Gbx" "$tmp/text.jpg" "JPEG or a PNG" "sample: a text file"
head -c 600 "$tmp/plain.jpg" >"$tmp/cut.jpg"
refused "$tmp/real.Map.Gbx" "$tmp/cut.jpg" "not a JPEG libjpeg reads" "sample: a JPEG cut short"

# ---- the corpus: the first map of each thumbnail size ----
if [ -d "$shared/corpus/gbx" ]; then
    seen=""
    for m in $(find "$shared/corpus/gbx" -type f \( -name '*.Map.Gbx' -o -name '*.Challenge.Gbx' \) | sort); do
        rm -rf "$tmp/c"
        "$rebyte" extract "$m" -o "$tmp/c" --only image -q 2>/dev/null || continue
        [ -f "$tmp/c/thumbnails/thumbnail.jpg" ] || continue
        side=$("$check" info "$tmp/c/thumbnails/thumbnail.jpg" | sed 's/x.*//')
        case " $seen " in *" $side "*) continue ;; esac
        seen="$seen $side"
        path=$(thumbnail_path "$tmp/c")
        every_route "$m" "$side" "$(basename "$m")"
    done
    [ "$(echo $seen | wc -w)" -ge 3 ] || fail "the corpus gave thumbnails of fewer than 3 sizes:$seen"
else
    echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); the sample map only"
fi

echo "thumbnails: $compared pictures put back and compared, $fails failures"
[ "$fails" -eq 0 ]
