#!/usr/bin/env python3
"""Checks what data.win extraction wrote, independently of rebyte's own decoders
(docs/formats/datawin.md "Assets").

    assets_check.py DUMP.json FOLDER

FOLDER holds the assets of one file and manifest.tsv (name, kind, path, replaceable), as
test_datawin_assets -o writes them. Each PNG is read here with zlib and struct alone: signature, every
chunk's CRC, IHDR, the IDAT stream inflated to exactly the bytes its size and filter bytes need.
Each WAV has a RIFF header whose length is the file's; each OGG starts with a page. The counts
must match the model in DUMP.json: one page per TXTR texture with data, one picture per sprite
frame, background, font and embedded image whose TPAG item exists, one sound per AUDO entry, a
bytecode file and a listing (text) per root code entry.
"""
import json
import os
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def check_png(data):
    """(width, height) of a PNG, or raises ValueError saying what is wrong."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    at, idat, ihdr, ended = 8, b"", None, False
    while at < len(data):
        if at + 12 > len(data):
            raise ValueError("chunk header past the end at %d" % at)
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if len(body) != length:
            raise ValueError("chunk %r runs past the end" % kind)
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("chunk %r has a wrong CRC" % kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            ended = True
            at += 12 + length
            break
        at += 12 + length
    if not ihdr or not ended or at != len(data):
        raise ValueError("no IHDR, no IEND or bytes after IEND")
    width, height, depth, colour, _, _, interlace = ihdr
    if width == 0 or height == 0 or colour not in CHANNELS:
        raise ValueError("IHDR %r" % (ihdr,))
    raw = zlib.decompress(idat)
    if interlace == 0:
        row = (width * CHANNELS[colour] * depth + 7) // 8
        if len(raw) != height * (row + 1):
            raise ValueError("IDAT inflates to %d bytes, %dx%d needs %d" % (len(raw), width, height, height * (row + 1)))
        for y in range(height):
            if raw[y * (row + 1)] > 4:
                raise ValueError("row %d has filter %d" % (y, raw[y * (row + 1)]))
    return width, height


def check_sound(name, data):
    if name.endswith(".wav"):
        if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
            raise ValueError("no RIFF/WAVE header")
        (length,) = struct.unpack("<I", data[4:8])
        if length + 8 != len(data):
            raise ValueError("RIFF length %d + 8 is not the file's %d bytes" % (length, len(data)))
    elif name.endswith(".ogg"):
        if data[:4] != b"OggS":
            raise ValueError("no Ogg page")


def operand_words(word):
    """Words after an instruction word (docs/formats/datawin.md "Bytecode instructions")."""
    opcode, kind = word >> 24, word >> 16 & 0xF
    if 0xC0 <= opcode <= 0xC3 or opcode == 0x84:
        return {0: 2, 3: 2, 15: 0}.get(kind, 1)
    if opcode == 0x45:
        return 0 if kind == 15 else 1
    if opcode == 0xD9:
        return 1
    if opcode == 0xFF:
        return 1 if kind == 2 else 0
    return 0


def check_listing(text, entry, doc):
    """A listing (docs/formats/datawin.md "Code listings") has one indented line per instruction
    of the entry's bytecode, in order, and shows the text of every string operand and the name of
    every variable and function operand on its instruction's line."""
    import base64
    chunks = {c["id"]: c for c in doc["chunks"]}
    blob = entry["bytecode"]
    code = base64.b64decode(blob["$base64"]) if "$base64" in blob else None
    instructions = [line for line in text.splitlines()[1:] if line.startswith("    ")]
    lines = {}
    if code is not None:
        at, offsets = 0, []
        while at + 4 <= len(code):
            offsets.append(at)
            at += 4 + 4 * operand_words(struct.unpack_from("<I", code, at)[0])
        if len(offsets) != len(instructions):
            raise ValueError("%s: %d instruction lines for %d instructions" % (entry["name"], len(instructions), len(offsets)))
        lines = dict(zip(offsets, instructions))
    names = {"variableReferences": ("variable", chunks.get("VARI", {}).get("variables", [])),
             "functionReferences": ("function", chunks.get("FUNC", {}).get("functions", []))}
    for key, (field, table) in names.items():
        for ref in entry.get(key, []):
            name = table[ref[field]]["name"]
            line = lines.get(ref["at"] - 4, "")
            if name not in line:
                raise ValueError("%s: the line at %d does not name %r: %r" % (entry["name"], ref["at"] - 4, name, line))
    for ref in entry.get("stringOperands", []):
        text = ref["string"] if isinstance(ref["string"], str) else ""
        # as the listing escapes: quotes, backslashes and control characters
        named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
        shown = "".join("\\" + ch if ch in "\"\\" else named[ch] if ch in named
                        else "\\x%02x" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F else ch for ch in text)[:60]
        line = lines.get(ref["at"] - 4, "")
        if shown not in line:
            raise ValueError("%s: the line at %d does not show %r: %r" % (entry["name"], ref["at"] - 4, text, line))


def expected_counts(doc):
    chunks = {c["id"]: c for c in doc["chunks"]}
    items = chunks.get("TPAG", {}).get("items", [])
    def usable(index):
        if not isinstance(index, int) or not 0 <= index < len(items):
            return False
        item = items[index]
        return item["boundingWidth"] > 0 and item["boundingHeight"] > 0 and item["texturePage"] >= 0
    pages = sum(1 for t in chunks.get("TXTR", {}).get("textures", []) if "data" in t)
    frames = sum(1 for s in chunks.get("SPRT", {}).get("sprites", []) for f in s.get("frames", []) if usable(f))
    linked = sum(1 for cid, key in (("BGND", "backgrounds"), ("FONT", "fonts"), ("EMBI", "images"))
                 for e in chunks.get(cid, {}).get(key, []) if usable(e.get("texture")))
    sounds = sum(1 for s in chunks.get("AUDO", {}).get("sounds", []) if "data" in s)
    code = sum(1 for e in chunks.get("CODE", {}).get("entries", []) if "bytecode" in e)
    return {"page": pages, "frame": frames, "linked": linked, "sound": sounds, "code": code, "listing": code}


def main():
    doc = json.load(open(sys.argv[1]))
    folder = sys.argv[2]
    got = {"page": 0, "frame": 0, "linked": 0, "sound": 0, "code": 0, "listing": 0}
    failures = 0
    with open(os.path.join(folder, "manifest.tsv")) as manifest:
        rows = [line.rstrip("\n").split("\t") for line in manifest if line.strip()]
    for name, kind, path, _ in rows:
        data = open(os.path.join(folder, name), "rb").read()
        try:
            if name.endswith(".png"):
                check_png(data)
            if kind == "sound":
                check_sound(name, data)
        except (ValueError, zlib.error, struct.error, UnicodeDecodeError) as e:
            print("FAIL %s: %s" % (name, e))
            failures += 1
        if "/textures/" in path:
            got["page"] += 1
        elif "/frames/" in path:
            got["frame"] += 1
        elif path.endswith("/texture"):
            got["linked"] += 1
        elif kind == "sound":
            got["sound"] += 1
        elif kind == "code" and path.endswith("/bytecode"):
            got["code"] += 1
        elif kind == "code":
            got["listing"] += 1
            try:
                entry = doc["chunks"][int(path.split("/")[2])]["entries"][int(path.split("/")[4])]
                check_listing(data.decode("utf-8"), entry, doc)
            except (ValueError, KeyError, IndexError) as e:
                print("FAIL %s: %s" % (name, e))
                failures += 1
    want = expected_counts(doc)
    for key in want:
        if got[key] != want[key]:
            print("FAIL %s: %d %s assets, the model has %d" % (folder, got[key], key, want[key]))
            failures += 1
    print("%s: %s" % (os.path.basename(folder), ", ".join("%d %s" % (got[k], k) for k in got)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
