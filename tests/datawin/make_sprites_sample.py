#!/usr/bin/env python3
"""Writes samples/datawin/sprites.json, the model of samples/datawin/sprites.win (`rebyte build` makes the
file from it; tests/datawin/sample_test.sh checks the two agree): a GMS 2.2-style data.win with one
64x64 texture page and three sprite frames on it, so `rebyte extract` has pages and sprites to
show (docs/usage.md "Assets"). Run from the source folder: python3 tests/datawin/make_sprites_sample.py

The page is drawn here and stored as a PNG written with zlib; each frame is trimmed the way
GameMaker packs them (a TPAG item's source rectangle on the page, its target place inside the
sprite's bounding box: docs/formats/datawin.md "TPAG"), and each sprite has one precise
collision mask made from the frames' alpha (docs/formats/datawin.md "SPRT")."""
import base64
import json
import struct
import zlib

W = H = 64


def png(pixels, width, height):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(c for p in pixels[y * width:(y + 1) * width] for c in p) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def coin(frame):
    """16x16, a gold coin turning: frame 0 face on, frame 1 edge on."""
    half_width = 6.5 if frame == 0 else 3.5
    out = []
    for y in range(16):
        for x in range(16):
            dx, dy = (x - 7.5) / half_width, (y - 7.5) / 6.5
            d = dx * dx + dy * dy
            if d > 1:
                out.append((0, 0, 0, 0))
            elif d > 0.6:
                out.append((184, 134, 11, 255))
            elif (x + y) % 5 == 0 and frame == 0:
                out.append((255, 250, 205, 255))
            else:
                out.append((255, 215, 0, 255))
    return out


def player():
    """24x32, a small figure."""
    out = []
    for y in range(32):
        for x in range(24):
            c = (0, 0, 0, 0)
            if (x - 11.5) ** 2 + (y - 6.5) ** 2 <= 30:
                c = (241, 194, 125, 255)  # head
                if y == 5 and x in (9, 14):
                    c = (40, 40, 60, 255)  # eyes
            elif 13 <= y < 24 and 6 <= x < 18:
                c = (65, 105, 225, 255)  # shirt
            elif 24 <= y < 31 and (7 <= x < 11 or 13 <= x < 17):
                c = (60, 60, 70, 255)  # legs
            out.append(c)
    return out


def trim(pixels, width, height):
    """The box of non-transparent pixels: x, y, width, height."""
    xs = [i % width for i, p in enumerate(pixels) if p[3]]
    ys = [i // width for i, p in enumerate(pixels) if p[3]]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def mask(frames, width, height):
    """One 1-bit mask (rows of ceil(width / 8) bytes, high bit first) of every frame's alpha."""
    out = bytearray()
    for y in range(height):
        row = 0
        for x in range(width):
            if any(f[y * width + x][3] for f in frames):
                row |= 1 << (7 - x % 8)
            if x % 8 == 7 or x == width - 1:
                out.append(row)
                row = 0
    return out


page = [(0, 0, 0, 0)] * (W * H)
items = []
place = [(2, 2), (20, 2), (2, 22)]  # where each trimmed frame goes on the page
frames = [(coin(0), 16, 16), (coin(1), 16, 16), (player(), 24, 32)]
for (pixels, width, height), (px, py) in zip(frames, place):
    tx, ty, tw, th = trim(pixels, width, height)
    for y in range(th):
        for x in range(tw):
            page[(py + y) * W + px + x] = pixels[(ty + y) * width + tx + x]
    items.append({"sourceX": px, "sourceY": py, "sourceWidth": tw, "sourceHeight": th, "targetX": tx,
                  "targetY": ty, "targetWidth": tw, "targetHeight": th, "boundingWidth": width,
                  "boundingHeight": height, "texturePage": 0})


def sprite(name, width, height, frame_items, origin):
    pixels = [frames[i][0] for i in frame_items]
    box = [trim(p, width, height) for p in pixels]
    left, top = min(b[0] for b in box), min(b[1] for b in box)
    right, bottom = max(b[0] + b[2] - 1 for b in box), max(b[1] + b[3] - 1 for b in box)
    return {"name": name, "width": width, "height": height, "marginLeft": left, "marginRight": right,
            "marginBottom": bottom, "marginTop": top, "transparent": False, "smooth": False, "preload": False,
            "bboxMode": 0, "sepMasks": 0, "originX": origin[0], "originY": origin[1], "specialVersion": 1,
            "spriteType": 0, "playbackSpeed": 15.0, "playbackSpeedType": 0, "frames": frame_items,
            "masks": [{"$base64": base64.b64encode(bytes(mask(pixels, width, height))).decode()}]}


sample = json.load(open("samples/datawin/sample.json"))
gen8 = dict(sample["chunks"][0])
gen8.update({"fileName": "sprites", "name": "sprites", "displayName": "rebyte sprite sample"})
model = {
    "$format": "datawin",
    "chunkAlignment": 16,
    "chunks": [
        gen8,
        {"id": "SPRT", "gms2": 1, "maskBboxSized": 0, "sequenceHasSize": 0,
         "sprites": [sprite("spr_coin", 16, 16, [0, 1], (8, 8)), sprite("spr_player", 24, 32, [2], (12, 31))]},
        {"id": "TPAG", "items": items},
        {"id": "STRG", "recordAlignment": 4,
         "strings": [gen8["fileName"], gen8["config"], gen8["displayName"], "spr_coin", "spr_player"]},
        {"id": "TXTR", "entryWords": 3,
         "textures": [{"scaled": 1, "generatedMips": 0, "data": {"$base64": base64.b64encode(png(page, W, H)).decode()}}]},
    ],
}
with open("samples/datawin/sprites.json", "w") as f:
    json.dump(model, f, indent=1)
    f.write("\n")
