#!/usr/bin/env python3
"""Embedded items as files (docs/formats/gbx_mapextra.md "Embedded items"), checked with readers
of our own: the body decoded by a Python LZO1X decoder (lzo1x.py), the zip by Python's zipfile.

On every corpus map whose embedded-items zip the model types: removing one embedded item is one
patch operation, after which the map verifies and its zip holds the other items, each with the
same bytes and a valid CRC-32, and a valid central directory; copying one item's content over
another replaces that item's bytes and nothing else in the zip.

Usage: embedded_zip.py REBYTE CORPUS_GBX_DIR   (exit 77 without the corpus)"""
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
import lzo1x  # noqa: E402

rebyte, corpus = sys.argv[1], sys.argv[2]
if not os.path.isdir(corpus):
    print("SKIP: no corpus at %s (set REBYTE_SHARED)" % corpus)
    sys.exit(77)
failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL " + message)


def body_of(path):
    """The decoded body of a binary GBX (version 6, no external nodes), read without rebyte."""
    d = open(path, "rb").read()
    assert d[:3] == b"GBX" and d[5:6] == b"B", path
    version = struct.unpack_from("<H", d, 3)[0]
    p = 9 if version >= 4 else 8
    p += 4  # class id
    if version >= 6:
        p += 4 + struct.unpack_from("<I", d, p)[0]
    p += 4  # node count
    externals = struct.unpack_from("<I", d, p)[0]
    assert externals == 0, "external nodes are not handled here"
    p += 4
    size, packed = struct.unpack_from("<II", d, p)
    return lzo1x.decompress(d[p + 8:p + 8 + packed], size)


def zip_of(body):
    """The zip in a body: a u32 size followed by PK\\3\\4 whose last 22 bytes are the end record."""
    at = body.find(b"PK\x03\x04")
    while at >= 4:
        size = struct.unpack_from("<I", body, at - 4)[0]
        if at + size <= len(body) and body[at + size - 22:at + size - 18] == b"PK\x05\x06":
            return zipfile.ZipFile(io.BytesIO(body[at:at + size]))
        at = body.find(b"PK\x03\x04", at + 1)
    return None


def entries(z):
    if z.testzip() is not None:
        fail("a zip entry's CRC-32 does not match its content")
    return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def zip_pointer(path, tmp):
    out = os.path.join(tmp, "dump.json")
    subprocess.run([rebyte, "dump", path, "-o", out], check=True)
    model = json.load(open(out))
    for n, chunk in enumerate(model["body"]["chunks"]):
        if chunk.get("id") == "0x03043054" and isinstance(chunk.get("embeddedZipData"), dict) \
                and "files" in chunk["embeddedZipData"]:
            return "/body/chunks/%d/embeddedZipData/files" % n, len(chunk["embeddedZipData"]["files"])
    return None, 0


def apply(path, ops, out, tmp):
    patch = os.path.join(tmp, "patch.json")
    json.dump(ops, open(patch, "w"))
    r = subprocess.run([rebyte, "apply", "-q", patch, path, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: %s" % (os.path.basename(path), r.stderr.strip()))
        return False
    if subprocess.run([rebyte, "verify", "-q", out], capture_output=True).returncode != 0:
        fail("%s: the edited map does not verify" % os.path.basename(path))
        return False
    return True


checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        if not name.endswith(".Map.Gbx"):
            continue
        files, count = zip_pointer(path, tmp)
        if not files or count < 3:
            continue
        original = entries(zip_of(body_of(path)))
        if len(original) != count:
            fail("%s: the zip has %d entries, the model %d" % (name, len(original), count))
            continue
        removed = os.path.join(tmp, "removed.Gbx")
        if apply(path, [{"op": "remove", "path": files + "/1"}], removed, tmp):
            after = entries(zip_of(body_of(removed)))
            if after != original[:1] + original[2:]:
                fail("%s: after removing item 1 the zip holds %s" % (name, [n for n, _ in after][:4]))
        replaced = os.path.join(tmp, "replaced.Gbx")
        if apply(path, [{"op": "copy", "from": files + "/2/content", "path": files + "/0/content"}], replaced, tmp):
            after = entries(zip_of(body_of(replaced)))
            expected = [(original[0][0], original[2][1])] + original[1:]
            if after != expected:
                fail("%s: copying item 2's content over item 0 did not give exactly that" % name)
        checked += 1
        print("%s: %d embedded files; remove and replace checked" % (name, count))
if checked == 0:
    fail("no corpus map has a typed embedded-items zip")
print("%d maps, %d failures" % (checked, failures))
sys.exit(1 if failures else 0)
