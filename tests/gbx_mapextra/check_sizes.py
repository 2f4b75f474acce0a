"""Independent checks of map files for the gbx_mapextra tests (not the project's reader).

  typed FILE.json           every header chunk and every body chunk of a dump is typed
  sizes FILE.Gbx [PATCH]    user-data sizes add up; the thumbnail size field matches its bytes
                            (and, with PATCH, equals the thumbnail the patch put there)
  trait FILE.json           the edits of colour-trait-title.patch.json are in the dump
"""
import base64
import json
import struct
import sys


def typed(path):
    d = json.load(open(path))
    bad = [h["id"] for h in d["headerChunks"] if "data" in h]
    bad += [c["id"] for c in d["body"]["chunks"] if "data" in c]
    if "opaqueTail" in d["body"]:
        bad.append("opaqueTail")
    if bad:
        print("opaque:", bad)
    return not bad


def sizes(path, patch=None):
    b = open(path, "rb").read()
    assert b[:3] == b"GBX"
    p = 3 + 2 + 3 + 1 + 4
    user_size, count = struct.unpack_from("<II", b, p)
    table = [struct.unpack_from("<II", b, p + 8 + 8 * i) for i in range(count)]
    total = 4 + 8 * count + sum(s & 0x7FFFFFFF for _, s in table)
    if total != user_size:
        print("user data size", user_size, "but the chunks add up to", total)
        return False
    start = p + 8 + 8 * count
    for cid, s in table:
        payload = b[start:start + (s & 0x7FFFFFFF)]
        if cid == 0x03043007:
            tag = payload.index(b"<Thumbnail.jpg>")
            n = struct.unpack_from("<I", payload, tag - 4)[0]
            jpeg = payload[tag + 15:tag + 15 + n]
            if payload[tag + 15 + n:tag + 31 + n] != b"</Thumbnail.jpg>":
                print("thumbnail size field", n, "does not end at </Thumbnail.jpg>")
                return False
            if patch:
                want = [op for op in json.load(open(patch)) if op["path"].endswith("/thumbnail")][0]
                if jpeg != base64.b64decode(want["value"]["$base64"]):
                    print("thumbnail bytes are not the patched ones")
                    return False
        start += s & 0x7FFFFFFF
    return True


def trait(path):
    d = json.load(open(path))
    chunks = {c["id"]: c for c in d["body"]["chunks"]}
    traits = chunks["0x03043044"]["scriptMetadata"]["chunks"][0]["traits"]
    ok = traits[-1] == {"name": "rebyte_Added", "typeIndex": 0, "value": 42}
    ok = ok and chunks["0x03043062"]["items"] == [0, 3]
    ok = ok and chunks["0x03043051"]["titleId"] == "TMStadium@nadeo"
    if not ok:
        print("edits not found:", traits[-1], chunks["0x03043062"]["items"], chunks["0x03043051"]["titleId"])
    return ok


if __name__ == "__main__":
    what = sys.argv[1]
    ok = {"typed": typed, "sizes": sizes, "trait": trait}[what](*sys.argv[2:])
    sys.exit(0 if ok else 1)
