#!/bin/sh
# data.win assets on every corpus file (the sample when the corpus is absent): test_datawin_assets
# (its path is the first argument) extracts each file's assets through the format's hook, puts
# every page, sound and a spread of TPAG items back unchanged (no operations: the same file), and
# replaces a page with a larger picture and a sprite frame with pictures of its size (each result
# verified, re-read and extracted again as the new picture; one of another size is refused); then
# assets_check.py reads every PNG and WAV it wrote without rebyte and compares the counts with the
# model (docs/formats/datawin.md "Assets").
. "$(dirname "$0")/common.sh"
tester=$1
files="$src/samples/datawin/sample.win $src/samples/datawin/sprites.win"
if [ -d "$corpus" ] && ls "$corpus"/*.win >/dev/null 2>&1; then
    files="$corpus/*.win $files"
else
    echo "note: no corpus at $corpus; checking the sample alone"
fi
# shellcheck disable=SC2086
"$tester" -o "$tmp/out" $files || fail "test_datawin_assets"
for win in $files; do
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/$name.json" || { fail "$name: dump"; continue; }
    python3 "$(dirname "$0")/assets_check.py" "$tmp/$name.json" "$tmp/out/$name" || fail "$name: assets"
done

# The sprite sample is what its model builds; the command line round trip on it: extract,
# replace each file unchanged (the same bytes), a frame with pixels where the item had none (the
# page grows) through `replace` and a page through a patch's {"$file"} (each verified, and
# extracted again as the new picture); a frame of another size is refused, naming the sprite's.
sprites="$src/samples/datawin/sprites.win"
"$rebyte" build "$src/samples/datawin/sprites.json" -o "$tmp/built.win" || fail "build sprites.json"
cmp -s "$tmp/built.win" "$sprites" || fail "samples/datawin/sprites.win is not what samples/datawin/sprites.json builds"
"$rebyte" extract -q "$sprites" -o "$tmp/x" || fail "extract the sprite sample"
python3 - "$tmp/x/manifest.json" > "$tmp/assets.tsv" <<'PY' || fail "manifest"
import json, sys
m = json.load(open(sys.argv[1]))
kinds = sorted(a["kind"] for a in m["assets"])
assert kinds == ["image"] * 4, kinds
for a in m["assets"]:
    print("%s\t%s" % (a["path"], a["file"]))
PY
while IFS="$(printf '\t')" read -r path file; do
    "$rebyte" replace -q "$sprites" "$path" "$tmp/x/$file" -o "$tmp/same.win" || fail "replace $path unchanged"
    cmp -s "$sprites" "$tmp/same.win" || fail "$path put back unchanged changes the file"
done < "$tmp/assets.tsv"
python3 - "$tmp/frame.png" "$tmp/page.png" <<'PY' || fail "make pictures"
import struct, sys, zlib
def png(path, w, h, pixel):
    def chunk(k, b):
        return struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                           chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1], 16, 16, lambda x, y: (200, x * 10, y * 10, 255))
png(sys.argv[1].replace("frame.png", "larger.png"), 20, 18, lambda x, y: (200, x * 10, y * 10, 255))
png(sys.argv[2], 96, 80, lambda x, y: (x, y, 128, 255 if (x + y) % 3 else 0))
PY
"$rebyte" replace -q "$sprites" /chunks/1/sprites/0/frames/1 "$tmp/frame.png" -o "$tmp/frame.win" || fail "replace a frame"
if "$rebyte" replace -q "$sprites" /chunks/1/sprites/0/frames/1 "$tmp/larger.png" -o "$tmp/larger.win" 2> "$tmp/larger.err"; then
    fail "a 20x18 frame of a 16x16 sprite was taken"
fi
grep -q 'a 20x18 picture for a frame of sprite "spr_coin" (16x16): its width, height, bounding box (2..13 x 2..13), 1 collision mask and 1 other frame are 16x16' "$tmp/larger.err" ||
    fail "a frame of another size: $(cat "$tmp/larger.err")"
[ ! -e "$tmp/larger.win" ] || fail "a frame of another size: an output was written"
"$rebyte" verify "$tmp/frame.win" >/dev/null || fail "a new frame: the file does not verify"
"$rebyte" extract -q "$tmp/frame.win" -o "$tmp/y" || fail "extract after a new frame"
printf '[{"op":"replace","path":"/chunks/4/textures/0/data","value":{"$file":"%s"}}]' "$tmp/page.png" > "$tmp/page.json"
"$rebyte" apply -q "$tmp/page.json" "$sprites" -o "$tmp/page.win" || fail "a page through {\"\$file\"}"
"$rebyte" extract -q "$tmp/page.win" -o "$tmp/z" || fail "extract after a new page"
# two frames of one page in one patch: each is put back into the original page, so the second
# would undo the first; the patch is refused and nothing is written
printf '[{"op":"replace","path":"/chunks/1/sprites/0/frames/0","value":{"$file":"%s"}},{"op":"replace","path":"/chunks/1/sprites/0/frames/1","value":{"$file":"%s"}}]' \
    "$tmp/frame.png" "$tmp/frame.png" > "$tmp/two.json"
if "$rebyte" apply -q "$tmp/two.json" "$sprites" -o "$tmp/two.win" 2> "$tmp/two.err"; then
    fail "two frames of one page in one patch were applied"
fi
grep -q "operation 1: its \$file changes /chunks/4/textures/0/data" "$tmp/two.err" || fail "two frames: $(cat "$tmp/two.err")"
[ ! -e "$tmp/two.win" ] || fail "two frames: an output was written"
python3 - "$tmp" <<'PY' || fail "the new frame and page extract as what was put there"
import sys
from extract_picture import read_png
t = sys.argv[1]
for new, back in (("frame.png", "y/sprites/spr_coin-1.png"), ("page.png", "z/textures/page-0000.png")):
    assert read_png(t + "/" + new) == read_png(t + "/" + back), back
assert read_png(t + "/x/sprites/spr_coin-0.png") == read_png(t + "/y/sprites/spr_coin-0.png"), "the other frame"
PY
[ "$fails" -eq 0 ]
