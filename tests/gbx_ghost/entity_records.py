#!/usr/bin/env python3
"""Entity records of TM2020 ghosts and replays (CPlugEntRecordData), decoded here on our own and
compared with what `rebyte extract` writes as CSV (docs/formats/gbx_ghost.md "Entity records").

rebyte is used only to find the record's zlib stream (`dump --blobs=base64`); this script
inflates it and reads the records itself: version 10 and below as marked lists of (time, length,
state), version 11 on as the transposed, delta-coded sample block. For every car entity
(CSceneVehicleVis 0x0A018000) it checks laws of a real run — times increase, the car moves
continuously (no step faster than 1000 km/h, but for a few respawns) — and that the CSV holds the
same times and positions (position: 3 floats at byte 47 of the state).

usage: entity_records.py REBYTE FILE_OR_DIR...   (exit 77 when no record is found)
"""
import base64
import csv
import glob
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

CAR = 0x0A018000
# a CPlugEntRecordData chunk in `dump --blobs=base64` text: its version, its stream's original bytes
RECORD_STREAM = re.compile(rb'"id": "0x0911F000",\s*"version": (\d+),\s*"compressedData": \{\s*"\$stream": \{'
                           rb'[^{}]*"original": \{\s*"\$base64": "([A-Za-z0-9+/=]*)"')
STREAM_CHUNK = re.compile(rb'"id": "0x0911F000",\s*"version": (?:[5-9]|\d\d+),')


class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, n):
        if n < 0 or self.p + n > len(self.d):
            raise ValueError("needs %d bytes at %d of %d" % (n, self.p, len(self.d)))
        v = self.d[self.p:self.p + n]
        self.p += n
        return v

    def i32(self):
        return struct.unpack("<i", self.take(4))[0]

    def u8(self):
        return self.take(1)[0]

    def data(self):
        return self.take(self.i32())


def transposed_samples(r):
    """Version 11 on: count, size, one time step each, then byte columns of differences."""
    count = r.i32()
    if count == 0:
        return []
    size = r.i32()
    steps = [r.i32() for _ in range(count)]
    states = [bytearray(size) for _ in range(count)]
    for b in range(size):
        column, value = r.take(count), 0
        for i in range(count):
            value = (value + column[i]) & 0xFF
            states[i][b] = value
    times, t = [], 0
    for s in steps:
        t = (t + s) & 0xFFFFFFFF
        times.append(t - (1 << 32) if t >= 1 << 31 else t)
    return list(zip(times, map(bytes, states)))


def records(version, content):
    """The car entities of one record: a list of [(time, state bytes)]."""
    r = Reader(content)
    if version >= 1:
        r.i32(), r.i32()
    classes = []
    for _ in range(r.i32()):
        classes.append(struct.unpack("<I", r.take(4))[0])
        r.i32(), r.i32(), r.i32(), r.data(), r.i32()
    if version >= 2:
        for _ in range(r.i32()):
            r.take(12 if version >= 4 else 8)
    cars = []
    more = r.u8()
    while more:
        kind = r.i32()
        r.take(16 if version >= 6 else 12)
        if version >= 11:
            samples = transposed_samples(r)
        else:
            samples = []
            while r.u8():
                samples.append((r.i32(), r.data()))
        more = r.u8()
        if version >= 2:
            while r.u8():
                r.i32(), r.i32(), r.data()
        if 0 <= kind < len(classes) and classes[kind] == CAR and samples and len(samples[0][1]) >= 103:
            cars.append(samples)
    return cars


def streams_of(rebyte, path):
    """(version, zlib bytes) of every CPlugEntRecordData chunk 0x0911F000 of version 5 on."""
    info = subprocess.run([rebyte, "info", path], capture_output=True, text=True).stdout
    if "compressedData" not in info and "embedded_streams" not in info:  # no record stream: spare the dump
        return []
    dump = subprocess.run([rebyte, "dump", "--blobs=base64", path], capture_output=True, check=True).stdout
    # The dump of a long run is hundreds of MB of typed samples; the stream's original bytes come
    # first in its chunk (id, version, then compressedData's $stream with codec, sizes, original),
    # so they are found in the text instead of parsing and walking the whole document.
    found = []
    for match in RECORD_STREAM.finditer(dump):
        if int(match.group(1)) >= 5:
            found.append((int(match.group(1)), base64.b64decode(match.group(2))))
    if len(found) != len(STREAM_CHUNK.findall(dump)):
        raise ValueError("%s: a record chunk whose stream is not where this script looks" % path)
    return found


def position(state):
    return struct.unpack_from("<3f", state, 47)


def check_laws(name, samples):
    """Times increase; between samples with a position (tools that cut a run leave placeholder
    states, NaN among them, where the cut was) the car moves no faster than 1000 km/h but for a
    few respawns."""
    times = [t for t, _ in samples]
    if any(b <= a for a, b in zip(times, times[1:])):
        return "%s: times do not increase" % name
    placed = [(t, position(s)) for t, s in samples if all(math.isfinite(v) for v in position(s))]
    if len(placed) < len(samples) // 2:
        return "%s: only %d of %d samples have a finite position" % (name, len(placed), len(samples))
    jumps = sum(math.dist(p0, p1) > 1000 / 3.6 * (t1 - t0) / 1000 + 1
                for (t0, p0), (t1, p1) in zip(placed, placed[1:]))
    if jumps > max(2, len(samples) // 50):
        return "%s: the car jumps %d times in %d samples" % (name, jumps, len(samples))
    return None


def csv_tables(rebyte, path):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([rebyte, "extract", path, "-o", out, "--only", "table", "-q"], capture_output=True)
        tables = []
        for f in sorted(glob.glob(os.path.join(out, "ghosts", "*.csv")), key=lambda f: int(f.split("-")[-1][:-4])):
            with open(f) as h:
                tables.append([row for row in csv.DictReader(h)])
        return tables


def same_run(samples, table):
    if len(samples) != len(table):
        return False
    for (t, state), row in zip(samples, table):
        try:
            if int(row["time_ms"]) != t:
                return False
            for v, key in zip(position(state), "xyz"):
                if not math.isfinite(v):  # the CSV leaves NaN and infinities empty
                    if row[key] not in ("", "inf", "-inf"):
                        return False
                elif abs(float(row[key]) - v) > 1e-4 * max(1.0, abs(v)):
                    return False
        except ValueError:  # an empty cell: a table of another kind
            return False
    return True


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    rebyte, files = argv[1], []
    for a in argv[2:]:
        files += sorted(glob.glob(os.path.join(a, "*"))) if os.path.isdir(a) else [a]
    failures, entities, by_version, samples_total = [], 0, {}, 0
    for path in files:
        if not path.lower().endswith(".gbx"):
            continue
        found = streams_of(rebyte, path)
        if not found:
            continue
        tables = None
        for version, stream in found:
            try:
                cars = records(version, zlib.decompress(stream))
            except (ValueError, struct.error, zlib.error) as e:
                failures.append("%s: our own decoding fails: %s" % (path, e))
                continue
            tables = tables if tables is not None else csv_tables(rebyte, path)
            for samples in cars:
                entities += 1
                samples_total += len(samples)
                by_version[version] = by_version.get(version, 0) + 1
                why = check_laws(path, samples)
                if why:
                    failures.append(why)
                if not any(same_run(samples, t) for t in tables):
                    failures.append("%s: no CSV of rebyte extract holds the %d samples decoded here" % (path, len(samples)))
    print("%d car entities, %d samples, by record version %s" % (entities, samples_total, dict(sorted(by_version.items()))))
    for f in failures[:20]:
        print("FAIL", f)
    if not entities:
        print("SKIP: no entity record among the files")
        return 77
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
