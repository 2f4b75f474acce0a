#!/usr/bin/env python3
"""TM2020 entity records (CPlugEntRecordData 0x0911F000) in files packed here, no corpus needed:
one record of version 10 (samples as a marked list) and one of version 11 (transposed,
delta-coded samples), each with a car entity (CSceneVehicleVis) and another entity. Checks that
rebyte reads them back exactly (also re-encoded), types the car's samples (time from the steps,
position at byte 47), writes them as CSV, rebuilds the same bytes from its JSON dump, and refuses
a sample of another size than sampleSize. Layout: docs/formats/gbx_ghost.md "Entity records".

usage: entity_fixture.py REBYTE
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

CAR, OTHER = 0x0A018000, 0x2F0CB000


def i32(v):
    return struct.pack("<i", v)


def data(b):
    return i32(len(b)) + b


def car_state(t):
    """A 116-byte car state: a position along x (continuous), the rest a pattern."""
    s = bytearray((7 * k + t) & 0xFF for k in range(116))
    s[47:59] = struct.pack("<3f", 10.0 + t * 0.5, 2.0, -3.0 - t * 0.25)
    return bytes(s)


def transposed(samples):
    """Version 11: count, size, time steps, then byte columns of differences."""
    out, size = i32(len(samples)), len(samples[0][1])
    out += i32(size)
    previous = 0
    for t, _ in samples:
        out += i32(t - previous)
        previous = t
    for b in range(size):
        before = 0
        for _, state in samples:
            out += bytes([(state[b] - before) & 0xFF])
            before = state[b]
    return out


def marked(samples):
    out = b""
    for t, state in samples:
        out += b"\x01" + i32(t) + data(state)
    return out + b"\x00"


def content(version, car, other):
    c = i32(0) + i32(2000)  # start, end
    c += i32(2)
    for cls in (CAR, OTHER):
        c += struct.pack("<I", cls) + i32(0) + i32(0) + i32(0) + data(b"") + i32(0)
    c += i32(0)  # objects2
    c += b"\x01"
    for index, samples in ((0, car), (1, other)):
        c += i32(index) + i32(0) + i32(0) + i32(2000) + i32(0)
        c += transposed(samples) if version >= 11 else marked(samples)
        c += b"\x01" if index == 0 else b"\x00"
        c += b"\x00"  # events
    c += b"\x00"  # bulk notices
    c += i32(0)  # custom module lists (u23)
    return c


def gbx(version, body_content):
    stream = zlib.compress(body_content)
    body = struct.pack("<I", 0x0911F000) + i32(version) + i32(len(body_content)) + i32(len(stream)) + stream
    body += struct.pack("<I", 0xFACADE01)
    head = b"GBX" + struct.pack("<H", 6) + b"BUUR" + struct.pack("<I", 0x0911F000) + i32(0) + i32(1) + i32(0)
    return head + body


def run(*args, ok=True):
    r = subprocess.run(list(args), capture_output=True, text=True)
    if ok and r.returncode != 0:
        raise SystemExit("FAIL: %s: %s%s" % (" ".join(args), r.stdout, r.stderr))
    return r


def main(argv):
    rebyte, failures = argv[1], []
    car = [(t, car_state(t // 50)) for t in range(0, 1000, 50)]
    other = [(t, bytes([t & 0xFF, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])) for t in range(0, 600, 100)]
    with tempfile.TemporaryDirectory() as tmp:
        for version in (10, 11):
            path = os.path.join(tmp, "record%d.Gbx" % version)
            with open(path, "wb") as f:
                f.write(gbx(version, content(version, car, other)))
            for extra in ([], ["--reencode"]):
                if "exact" not in run(rebyte, "verify", *extra, path).stdout:
                    failures.append("v%d: not exact %s" % (version, extra))
            info = json.loads(run(rebyte, "info", "--json", path).stdout)
            if info["coverage"]["opaque_bytes"] != 0:
                failures.append("v%d: %d bytes opaque" % (version, info["coverage"]["opaque_bytes"]))
            dump = json.loads(run(rebyte, "dump", "--blobs=base64", path).stdout)
            entities = dump["body"]["chunks"][0]["compressedData"]["entities"]
            first = entities[0]["samples"][3]
            state = first if version >= 11 else first["state"]
            if first["time"] != 150 or abs(state["position"]["x"] - 11.5) > 1e-6:
                failures.append("v%d: sample 3 reads %s" % (version, json.dumps(first)[:200]))
            if [s["time"] for s in entities[1]["samples"]] != [t for t, _ in other]:
                failures.append("v%d: the other entity's times are not the steps' sums" % version)
            out = os.path.join(tmp, "x%d" % version)
            run(rebyte, "extract", path, "-o", out, "-q")
            rows = open(os.path.join(out, "ghosts", "ghost-1.csv")).read().splitlines()[1:]
            want = ["%d,%.6g" % (t, 10.0 + (t // 50) * 0.5) for t, _ in car]
            if [",".join(r.split(",")[:2]) for r in rows] != want:
                failures.append("v%d: the CSV's times and x are not the packed ones: %s" % (version, rows[:2]))
            json_path = os.path.join(tmp, "d%d.json" % version)
            with open(json_path, "w") as f:
                json.dump(dump, f)
            rebuilt = os.path.join(tmp, "r%d.Gbx" % version)
            run(rebyte, "build", "--new-record", json_path, "-o", rebuilt)
            if open(rebuilt, "rb").read() != open(path, "rb").read():
                failures.append("v%d: built from its dump, the bytes differ" % version)
            if version >= 11:  # a sample of another size than sampleSize is refused
                entities[1]["samples"][2]["data"] = {"$base64": "AAEC"}
                with open(json_path, "w") as f:
                    json.dump(dump, f)
                bad = run(rebyte, "build", "--new-record", json_path, "-o", os.path.join(tmp, "bad.Gbx"), ok=False)
                if bad.returncode == 0 or os.path.exists(os.path.join(tmp, "bad.Gbx")):
                    failures.append("v11: a 3-byte sample among 13-byte ones was written")
    for f in failures:
        print("FAIL", f)
    print("entity record fixtures (versions 10 and 11): %s" % ("all checks passed" if not failures else "%d failed" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
