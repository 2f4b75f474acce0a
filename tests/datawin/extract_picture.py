#!/usr/bin/env python3
"""Draws docs/images/datawin-extract.png, the picture of docs/usage.md "Assets": what `rebyte
extract samples/datawin/sprites.win -o DIR` wrote, the texture page beside the sprite frames cut from
it, 4 times enlarged on a checkerboard (transparent pixels show as the board).

    extract_picture.py DIR OUT.png

Reads the PNGs with zlib and struct alone (8-bit RGBA, not interlaced: what extract writes)."""
import json
import os
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 6, "expects 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw, row, out, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (row + 1)], bytearray(raw[y * (row + 1) + 1:(y + 1) * (row + 1)])
        for i in range(row):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(line)
        prev = line
    return width, height, out


def write_png(path, width, height, rows, colour_type=2):
    """A PNG of 8-bit rows: colour type 2 (RGB), or 6 (RGBA)."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(r) for r in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    folder, out = sys.argv[1], sys.argv[2]
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    pictures = [read_png(os.path.join(folder, a["file"])) for a in manifest["assets"] if a["kind"] == "image"]
    SCALE, GAP = 4, 16
    width = sum(w * SCALE for w, _, _ in pictures) + GAP * (len(pictures) + 1)
    height = max(h * SCALE for _, h, _ in pictures) + 2 * GAP
    canvas = [bytearray(b"\xf4\xf4\xf4" * width) for _ in range(height)]
    x0 = GAP
    for w, h, rows in pictures:
        for y in range(h * SCALE):
            for x in range(w * SCALE):
                r, g, b, a = rows[y // SCALE][(x // SCALE) * 4:(x // SCALE) * 4 + 4]
                board = 204 if ((x // 8) + (y // 8)) % 2 else 255
                canvas[GAP + y][(x0 + x) * 3:(x0 + x) * 3 + 3] = bytes((c * a + board * (255 - a)) // 255 for c in (r, g, b))
        x0 += w * SCALE + GAP
    write_png(out, width, height, canvas)


if __name__ == "__main__":
    main()
