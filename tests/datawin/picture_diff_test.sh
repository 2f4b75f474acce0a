#!/bin/sh
# Pictures as pictures in diffs (docs/usage.md "Diffs"). On the sprite sample, every corpus
# data.win or every public one: one sprite frame recoloured (its opaque pixels, same size)
# through `replace`; then
#  1. `rebyte diff` (pinned, by position) and `rebyte diff --by-identity` are one operation each,
#     a {"$png"} replace of that frame (no page, no base64 of it), at most 4x the size of the
#     frame's PNG, and apply of either to the original gives the edited file's bytes;
#  2. the identity diff applied to another build of the game (the original with another frame
#     grown onto a bigger page and a room renamed: other page bytes, other item coordinates)
#     puts exactly that frame's pixels there;
#  3. applied to a build whose sprite has another name, it is refused, naming the selector.
# Usage: picture_diff_test.sh sample|corpus|public
. "$(dirname "$0")/common.sh"
case "${1:-sample}" in
sample) files="$src/samples/datawin/sprites.win" ;;
corpus) require_corpus; files=$(ls "$corpus"/*.win) ;;
public)
    files=$(ls "$shared"/public/datawin/*.win 2>/dev/null)
    [ -n "$files" ] || { echo "SKIP: no public data.win in $shared/public/datawin"; exit 77; } ;;
*) echo "usage: picture_diff_test.sh sample|corpus|public" >&2; exit 64 ;;
esac
checked=0
largest=0

for win in $files; do
    name=$(basename "$win")
    rm -rf "$tmp/x" "$tmp/y" "$tmp/z"
    "$rebyte" extract -q --only image "$win" -o "$tmp/x" || { fail "$name: extract"; continue; }
    # the first sprite frame whose PNG is not tiny (a diff has an envelope of its own), and
    # another frame of another sprite for the other build
    python3 - "$tmp/x" "$tmp/pick" <<'PY' || { echo "$name: no sprite frame to edit"; continue; }
import json, os, sys
folder, out = sys.argv[1], sys.argv[2]
frames = [a for a in json.load(open(os.path.join(folder, "manifest.json")))["assets"]
          if "/sprites/" in a["path"] and "/frames/" in a["path"] and a["replaceable"]]
edit = next((a for a in frames if a["size"] >= 200), None)
if edit is None:
    sys.exit(1)
sprite = edit["path"].rsplit("/frames/", 1)[0]
other = next((a for a in frames if not a["path"].startswith(sprite + "/")), None)
with open(out, "w") as f:
    f.write("%s\t%s\t%s\t%s\n" % (edit["path"], edit["file"], other["path"] if other else "", other["file"] if other else ""))
PY
    IFS="$(printf '\t')" read -r path file other other_file < "$tmp/pick"
    python3 - "$tmp/x/$file" "$tmp/edited.png" recolour <<'PY' || { fail "$name: recolour $file"; continue; }
import struct, sys, zlib
from extract_picture import read_png
w, h, rows = read_png(sys.argv[1])
def chunk(k, b): return struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b) & 0xFFFFFFFF)
out = []
for line in rows:
    line = bytearray(line)
    for x in range(w):
        if sys.argv[3] == "opaque":
            line[4 * x:4 * x + 4] = bytes((30, 200, 90, 255))
        elif line[4 * x + 3]:
            line[4 * x] ^= 0x80
    out.append(b"\0" + bytes(line))
open(sys.argv[2], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                              chunk(b"IDAT", zlib.compress(b"".join(out), 9)) + chunk(b"IEND", b""))
PY
    "$rebyte" replace -q "$win" "$path" "$tmp/edited.png" -o "$tmp/b.win" 2>"$tmp/err" ||
        { fail "$name: replace $path: $(cat "$tmp/err")"; continue; }
    "$rebyte" extract -q --only image "$tmp/b.win" -o "$tmp/y" || { fail "$name: extract B"; continue; }
    # 1. one {"$png"} operation, small, exact
    for mode in index identity; do
        flag=""; [ "$mode" = identity ] && flag=--by-identity
        "$rebyte" diff $flag "$win" "$tmp/b.win" >"$tmp/$mode.json"
        [ $? -eq 1 ] || { fail "$name: diff $flag"; continue; }
        python3 - "$tmp/$mode.json" "$tmp/y/$file" "$path" "$mode" >"$tmp/ratio" <<'PY' || fail "$name: the $mode diff: $(cat "$tmp/ratio")"
import json, os, sys
diff, png, path, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ops = [o for o in json.load(open(diff))["operations"] if o["op"] != "test"]
assert len(ops) == 1, "%d operations: %s" % (len(ops), [o["path"] for o in ops])
op = ops[0]
assert op["op"] == "replace" and list(op["value"]) == ["$png"], op["path"]
if mode == "index":
    assert op["path"] == path, op["path"]
else:
    assert "[name=" in op["path"] and op["path"].endswith("/frames/" + path.rsplit("/", 1)[1]), op["path"]
ratio = os.path.getsize(diff) / os.path.getsize(png)
print("%.2f" % ratio)
assert ratio <= 4, "%d bytes for a frame of %d (%.2fx)" % (os.path.getsize(diff), os.path.getsize(png), ratio)
PY
        "$rebyte" apply -q "$tmp/$mode.json" "$win" -o "$tmp/again.win" && cmp -s "$tmp/again.win" "$tmp/b.win" ||
            fail "$name: apply(diff $flag) does not give the edited file's bytes"
    done
    ratio=$(cat "$tmp/ratio")
    # 2. another build: another frame grown onto a bigger page, a room renamed
    if [ -n "$other" ]; then
        python3 - "$tmp/x/$other_file" "$tmp/opaque.png" opaque <<'PY' 2>/dev/null
import struct, sys, zlib
from extract_picture import read_png
w, h, rows = read_png(sys.argv[1])
def chunk(k, b): return struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b) & 0xFFFFFFFF)
raw = b"".join(b"\0" + bytes((30, 200, 90, 255)) * w for _ in range(h))
open(sys.argv[2], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                              chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY
        "$rebyte" replace -q "$win" "$other" "$tmp/opaque.png" -o "$tmp/build2.win" 2>"$tmp/err" ||
            { fail "$name: the other build: $(cat "$tmp/err")"; continue; }
        echo '[{"op":"replace","path":"/chunks/[id=ROOM]/rooms/0/name","value":"rebyte_other_build"}]' >"$tmp/room.json"
        "$rebyte" apply -q "$tmp/room.json" "$tmp/build2.win" -o "$tmp/build3.win" 2>/dev/null ||
            cp "$tmp/build2.win" "$tmp/build3.win"
        cmp -s "$win" "$tmp/build3.win" && fail "$name: the other build is the same file"
        "$rebyte" apply -q "$tmp/identity.json" "$tmp/build3.win" -o "$tmp/c.win" 2>"$tmp/err" ||
            { fail "$name: the identity diff on another build: $(cat "$tmp/err")"; continue; }
        "$rebyte" extract -q --only image "$tmp/c.win" -o "$tmp/z" || { fail "$name: extract C"; continue; }
        cmp -s "$tmp/y/$file" "$tmp/z/$file" || fail "$name: on another build, $file is not the edited frame"
        cmp -s "$tmp/z/$other_file" "$tmp/x/$other_file" && fail "$name: the other build's own frame was undone"
    fi
    # 3. a build without that sprite (renamed): refused, naming the selector
    sprite=$(python3 -c "import sys; print(sys.argv[1].rsplit('/frames/', 1)[0])" "$path")
    echo "[{\"op\":\"replace\",\"path\":\"$sprite/name\",\"value\":\"rebyte_no_such_sprite\"}]" >"$tmp/rename.json"
    "$rebyte" apply -q "$tmp/rename.json" "$win" -o "$tmp/nosprite.win" || { fail "$name: rename the sprite"; continue; }
    if "$rebyte" apply -q "$tmp/identity.json" "$tmp/nosprite.win" -o "$tmp/refused.win" 2>"$tmp/err"; then
        fail "$name: the identity diff applied to a build without the sprite"
    fi
    grep -q "matches 0 elements" "$tmp/err" || fail "$name: without the sprite: $(cat "$tmp/err")"
    checked=$((checked + 1))
    echo "$name: $path ($file): one \$png operation, ${ratio}x the frame's PNG"
done
[ "$checked" -gt 0 ] || fail "no file checked"
[ "$fails" -eq 0 ] && echo "datawin pictures in diffs: ok ($checked files)"
[ "$fails" -eq 0 ]
