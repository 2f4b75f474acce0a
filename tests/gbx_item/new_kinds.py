#!/usr/bin/env python3
"""GameBox kinds beyond maps, packed here from their layouts:
docs/formats/gbx.md "File index (FidCache)",
docs/formats/gbx_item.md "Prefab chunks" and "Spawn and wagon chunks".
A file index, a prefab whose main node is an archive without chunks, a spawn model, a vehicle
item's physics coefficients: each must read typed to its end with no opaque byte, verify
exactly, give its bytes back through dump + build, and show the packed values.

usage: new_kinds.py REBYTE TMPDIR
"""
import json
import struct
import subprocess
import sys


def pack(fmt, *values):
    return struct.pack("<" + fmt, *values)


def string(text):
    data = text.encode()
    return pack("I", len(data)) + data


def gbx(class_id, body, nodes):
    """An uncompressed binary GBX file of version 6 without header chunks or external nodes."""
    return b"GBX" + pack("H", 6) + b"BUUR" + pack("III", class_id, 0, nodes) + pack("I", 0) + body


FACADE = pack("I", 0xFACADE01)

FID_CACHE = gbx(0x01026000, pack("III", 0x01026000, 0x01001000, 1) + pack("II", 10, 1)
                + pack("II", 1, 0x09049000) + pack("II", 5, 0x12345678) + string(":data:\\Maps\\")
                + pack("I", 1) + pack("i", -1) + string("Mine\\")
                + pack("I", 1) + pack("i", 0) + string("A.Map.Gbx")
                + pack("IIIiIII", 0, 1234, 0, -1, 0x03043000, 2, 0)
                + pack("QQ", 132000000000000000, 132000000000000001)
                + pack("I", 6) + b"\x04\x00head" + FACADE, 2)

KINEMATIC = (pack("II", 1, 0x2F0CA000) + pack("Ii", 0, 3)
             + pack("II", 1, 1) + pack("BBi", 3, 0, 5000)  # translation: timed, one step
             + pack("II", 1, 0)                              # rotation: timed, no step
             + pack("iiI", 0, 0, 0) + pack("BffBff", 0, 0.0, 1.0, 1, 0.0, 360.0))
PREFAB = gbx(0x09145000, pack("IQ", 11, 133282700614118720) + string("") + pack("iIi", 0, 1, 0)
             + KINEMATIC + pack("4f", 0, 0, 0, 1) + pack("3f", 1, 2, 3)
             + pack("II", 0x2F0C8000, 0) + pack("ii", -1, 0) + pack("6f", 0, 0, 0, 0, 0, 1) + string(""), 2)

SPAWN = gbx(0x2E00E000, pack("II", 0x2E00E000, 3) + pack("12f", 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 6, 7)
            + pack("Ifi", 0, 0.5, 300) + pack("3f", 0, -9.81, 0) + FACADE, 1)

VEHICLE_PHYSICS = gbx(0x0911E000, pack("II3f", 0x0911E000, 0, 1.5, 0.75, 2.0) + FACADE, 1)

EXPECT = {
    "fid.FidCache.Gbx": (FID_CACHE, ["/body/chunks/0/nods/0/files/0/name", "A.Map.Gbx"],
                         ["/body/chunks/0/nods/0/folders/0/name", "Mine\\"]),
    "p.Prefab.Gbx": (PREFAB, ["/body/ents/0/model/transAnimFunc/subFuncs/0/durationMs", 5000],
                     ["/body/ents/0/params/classId", "0x2F0C8000"]),
    "s.Spawn.Gbx": (SPAWN, ["/body/chunks/0/torqueDuration", 300], ["/body/chunks/0/underground", False]),
    "v.VehiclePhyModelCustom.Gbx": (VEHICLE_PHYSICS, ["/body/chunks/0/gravityCoef", 2.0],
                                    ["/body/chunks/0/controlCoef", 0.75]),
}


def at(doc, pointer):
    """The value at a JSON pointer, or None where the dump has no such path."""
    try:
        for part in pointer.strip("/").split("/"):
            doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    except (IndexError, KeyError, ValueError, TypeError):
        return None
    return doc


def main(argv):
    rebyte, tmp = argv[1], argv[2]
    failures = 0
    for name, (data, *checks) in EXPECT.items():
        path = f"{tmp}/{name}"
        open(path, "wb").write(data)
        info = json.loads(subprocess.run([rebyte, "info", "--json", path], capture_output=True, text=True).stdout or "{}")
        cov = info.get("coverage", {})
        if not info.get("typed_to_end") or cov.get("opaque_bytes") != 0:
            print(f"FAIL {name}: not typed to its end: {cov}")
            failures += 1
        if subprocess.run([rebyte, "verify", "-q", path], capture_output=True).returncode != 0:
            print(f"FAIL {name}: does not verify")
            failures += 1
        if subprocess.run([rebyte, "dump", path, "-o", path + ".json"], capture_output=True).returncode != 0:
            print(f"FAIL {name}: dump refuses it")
            failures += 1
            continue
        built = subprocess.run([rebyte, "build", path + ".json", "-o", path + ".built"]).returncode == 0
        if not built or open(path + ".built", "rb").read() != data:
            print(f"FAIL {name}: dump + build does not give the packed bytes")
            failures += 1
        doc = json.load(open(path + ".json"))
        for pointer, want in checks:
            got = at(doc, pointer)
            if got != want:
                print(f"FAIL {name}: {pointer} is {got!r}, packed {want!r}")
                failures += 1
    print("new GBX kinds:", "ok" if failures == 0 else f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
