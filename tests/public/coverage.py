#!/usr/bin/env python3
"""Per-kind typing coverage of the public test world (tests/public/README.md).

Reads `rebyte verify --json` over each gathered set, sums typed and opaque bytes per kind of
file (map, item, ghost, replay, block, macroblock, mesh, shape, ...: by the file's class, else from the file name, else from the set's
name), prints one line per kind, and fails when a kind keeps more than --max-opaque percent of
its bytes opaque or when a typed parse stops (an opaque tail, or an embedded file kept as its
bytes) in any file.

usage: coverage.py REBYTE PUBLIC_DIR [--max-opaque 2.0] [SET...]
"""
import json
import os
import struct
import subprocess
import sys

KINDS = {"ghost": "ghost", "item": "item", "replay": "replay", "map": "map", "challenge": "map",
         "block": "block", "macroblock": "macroblock", "mesh": "mesh", "shape": "shape"}
SET_KINDS = {"ghosts": "ghost", "items": "item", "replays": "replay", "blocks": "block",
             "macroblocks": "macroblock"}


CLASS_KINDS = {0x03043000: "map", 0x24003000: "map", 0x03093000: "replay", 0x2403F000: "replay",
               0x2407E000: "replay", 0x03092000: "ghost", 0x2E002000: "item", 0x0310D000: "macroblock",
               0x090BB000: "mesh", 0x0900C000: "shape", 0x09005000: "solid", 0x2E00E000: "spawn",
               0x0911C000: "wagon", 0x03051000: "block info", 0x24022000: "block info",
               0x09145000: "prefab", 0x0B005000: "system config", 0x03090000: "campaign", 0x0308C000: "profile", 0x0308D000: "scores", 0x01026000: "fid cache"}


# notes of `verify` that say a typed parse stopped inside the file (an embedded file, an item)
STOP_NOTES = ("typed parse stopped", "embedded item kept as bytes", "entity records kept opaque",
              "ghost samples kept opaque")


def class_of(path):
    """The main class id of a GBX file (its header), or None."""
    with open(path, "rb") as f:
        head = f.read(13)
    if head[:3] != b"GBX" or len(head) < 13:
        return None
    version = struct.unpack_from("<H", head, 3)[0]
    at = 5 + (3 if version >= 3 else 0) + (1 if version >= 4 else 0)
    return struct.unpack_from("<I", head, at)[0] if at + 4 <= len(head) else None


def kind_of(path, set_name):
    """The kind a file counts for: its class (a replay named .Ghost.Gbx is a replay), else its name."""
    kind = CLASS_KINDS.get(class_of(path))
    if kind and not (kind == "item" and os.path.basename(path).lower().endswith(".block.gbx")):
        return kind
    parts = os.path.basename(path).lower().split(".")
    if len(parts) >= 3 and parts[-2] in KINDS:
        return KINDS[parts[-2]]
    if set_name.startswith("maps"):
        return "map"
    return SET_KINDS.get(set_name, set_name)


def verify_reports(rebyte, directory):
    run = subprocess.run([rebyte, "verify", "--json", directory], capture_output=True, text=True)
    for line in run.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            report = json.loads(line)
            if "file" in report:
                yield report


def main(argv):
    max_opaque = 2.0
    if "--max-opaque" in argv:
        i = argv.index("--max-opaque")
        max_opaque = float(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    rebyte, public = argv[1], argv[2]
    sets = argv[3:] or sorted(d for d in os.listdir(public) if os.path.isdir(os.path.join(public, d)))
    totals, stops, failed = {}, [], 0
    for set_name in sets:
        directory = os.path.join(public, set_name)
        if not os.path.isdir(directory):
            continue
        for r in verify_reports(rebyte, directory):
            k = kind_of(r["file"], set_name)
            t = totals.setdefault(k, [0, 0, 0])
            t[0] += 1
            t[1] += r.get("typed_bytes", 0)
            t[2] += r.get("opaque_bytes", 0)
            # a stop inside a file the body embeds (a map's item kept as its bytes) is a stop too
            if r.get("opaque_tail") or any(m in n for n in r.get("notes") or [] for m in STOP_NOTES):
                stops.append(r["file"])
    if not totals:
        print("SKIP: no public set gathered under", public)
        return 77
    for k in sorted(totals):
        files, typed, opaque = totals[k]
        share = 100.0 * opaque / max(1, typed + opaque)
        verdict = "ok" if share <= max_opaque else "FAIL (above %.1f%%)" % max_opaque
        failed += share > max_opaque
        print("%-10s %5d files  %12d bytes  %6.2f%% opaque  %s" % (k, files, typed + opaque, share, verdict))
    for f in stops:
        print("FAIL typed parse stops:", f)
    return 1 if failed or stops else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
