"""rebyte render over every map, ghost, replay and data.win of the corpus and the public test world
(long): each map's picture decodes (tests/datawin/assets_check.py's PNG check: chunks, CRCs, the
inflated rows and their filters, with zlib and struct, not libpng), is at most 2048
pixels a side, and its --json counts are the model's (info: blocks, items); each ghost or replay
whose samples `extract` decodes gets a path of those samples; a room with instances is drawn;
and a patch of three edits on a real map marks exactly three changes."""
import concurrent.futures
import csv
import glob
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datawin"))
from assets_check import check_png  # noqa: E402

REBYTE, SHARED = sys.argv[1], sys.argv[2]
if not os.path.isdir(os.path.join(SHARED, "corpus/gbx")):
    print("SKIP: no corpus under %s" % SHARED)
    sys.exit(77)


def run(*args):
    return subprocess.run([REBYTE, *args], capture_output=True)


def files(*patterns):
    return sorted(f for p in patterns for f in glob.glob(os.path.join(SHARED, p)))


def picture(path, *extra):
    """(report, error): the report of a render whose PNG decoded, else why not."""
    r = run("render", path, "-o", "-", "--json", *extra)
    if r.returncode != 0:
        return None, "exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace").strip())
    try:
        width, height = check_png(r.stdout)
    except ValueError as e:
        return None, "PNG: %s" % e
    report = json.loads(r.stderr.decode().strip().splitlines()[-1])
    if (width, height) != (report["width"], report["height"]) or max(width, height) > 2048:
        return None, "picture %dx%d, report %r" % (width, height, (report["width"], report["height"]))
    return report, None


def check_map(path):
    report, error = picture(path)
    if error:
        return error
    info = json.loads(run("info", path, "--json").stdout).get("map", {})
    blocks = report["blocks"]["count"] + report["blocks"]["not_drawn"]
    if blocks != info.get("block_count", 0):
        return "blocks: drew %d (+%d not drawn), the model has %r" % (
            report["blocks"]["count"], report["blocks"]["not_drawn"], info.get("block_count"))
    items = report["items"]["count"] + report["items"]["not_drawn"]
    if items != info.get("items", {}).get("count", 0):
        return "items: drew %d, the model has %r" % (items, info.get("items"))
    return None


def decoded_samples(path):
    """Rows of each ghost CSV `extract` writes with a position."""
    r = run("extract", path, "--only", "table", "-o", "-", "-q")
    if r.returncode != 0:
        return []
    counts = []
    with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tar:
        for member in tar.getmembers():
            if not member.name.startswith("ghosts/"):
                continue
            # csv.reader and the two columns' places: a dict a row was most of this test's python
            rows = csv.reader(io.StringIO(tar.extractfile(member).read().decode()))
            header = next(rows, [])
            x, z = header.index("x"), header.index("z")
            counts.append(sum(1 for row in rows if len(row) > max(x, z) and row[x] and row[z]))
    return counts


def check_record(path):
    samples = [n for n in decoded_samples(path) if n]
    report, error = picture(path)
    if not samples:
        return None if error or report else "no samples, yet drawn"
    if error:
        return "%d ghost(s) with samples: %s" % (len(samples), error)
    drawn = [p["samples"] for p in report["paths"]]
    if not drawn or not set(drawn) <= set(samples):
        return "paths of %r samples, extract decodes %r" % (drawn, samples)
    drawn_records.append(path)
    return None


def check_room(path):
    report, error = picture(path)
    if error and "no room of the data.win has instances" not in error:
        return error
    if report and report["items"]["count"] == 0:
        return "a room drawn without instances"
    if report:
        drawn_rooms.append(path)
    return None


def three_edits(tmp):
    """A patch of three edits on a TMF map of the corpus: exactly three changes marked."""
    path = files("corpus/gbx/16809160_StuntC1.Challenge.Gbx")
    if not path:
        return "the TMF map StuntC1 is not in the corpus"
    chunks = json.loads(run("dump", path[0]).stdout)["body"]["chunks"]
    data = next(i for i, c in enumerate(chunks) if c["id"] == "0x0304301F")
    patch = os.path.join(tmp, "three.patch.json")
    json.dump([{"op": "remove", "path": "/body/chunks/%d/blocks/100" % data},
               {"op": "replace", "path": "/body/chunks/%d/blocks/199/coord" % data, "value": [20, 6, 20]},
               {"op": "replace", "path": "/body/chunks/%d/mapName" % data, "value": "StuntC1 reviewed"}],
              open(patch, "w"))
    report, error = picture(path[0], "--diff", patch)
    if error:
        return error
    diff = report["diff"]
    kinds = {k: len(diff[k]) for k in ("added", "removed", "moved", "changed", "facts")}
    if diff["changes"] != 3 or kinds != {"added": 0, "removed": 1, "moved": 1, "changed": 0, "facts": 1}:
        return "three edits: %r" % diff
    return None


def room_diff(tmp):
    """Two edits of a room's instances (one moved, one removed) on a drawn data.win: two changes."""
    if not drawn_rooms:
        return None
    path = sorted(drawn_rooms)[0]
    chunks = json.loads(run("dump", path).stdout)["chunks"]
    chunk = next(i for i, c in enumerate(chunks) if "rooms" in c)
    room = next(i for i, r in enumerate(chunks[chunk]["rooms"]) if r.get("instances"))
    if len(chunks[chunk]["rooms"][room]["instances"]) < 2:
        return None
    patch = os.path.join(tmp, "room.patch.json")
    base = "/chunks/%d/rooms/%d/instances" % (chunk, room)
    x = chunks[chunk]["rooms"][room]["instances"][0]["x"]
    json.dump([{"op": "replace", "path": base + "/0/x", "value": x + 64}, {"op": "remove", "path": base + "/1"}],
              open(patch, "w"))
    report, error = picture(path, "--diff", patch)
    if error:
        return "%s: %s" % (path, error)
    diff = report["diff"]
    if diff["changes"] != 2 or len(diff["moved"]) != 1 or len(diff["removed"]) != 1:
        return "%s: two edits of a room: %r" % (path, diff)
    return None


def ghost_over_map():
    """A ghost file drawn over a map (--over): its path in the map's frame."""
    ghosts = sorted(p for p in drawn_records if "/public/ghosts/" in p)
    tm2020 = files("public/maps-tm2020/*")
    if not ghosts or not tm2020:
        return None
    report, error = picture(ghosts[0], "--over", tm2020[0])
    if error:
        return "%s --over %s: %s" % (ghosts[0], tm2020[0], error)
    if not report["paths"] or report["frame"][0] <= 0 or report["blocks"]["count"] == 0:
        return "%s --over %s: %r" % (ghosts[0], tm2020[0], report)
    return None


maps = files("corpus/gbx/*.Challenge.Gbx", "corpus/gbx/*.Map.Gbx", "public/maps/*", "public/maps-tm2020/*")
records = files("corpus/gbx/*.Replay.Gbx", "corpus/gbx/*.Ghost.Gbx", "public/ghosts/*", "public/replays/*")
rooms = files("corpus/datawin/*", "public/datawin/*")
rooms = [f for f in rooms if not os.path.basename(f).startswith("MANIFEST")]
jobs = [(check_map, f) for f in maps] + [(check_record, f) for f in records] + [(check_room, f) for f in rooms]
failures, drawn_records, drawn_rooms = [], [], []
with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("REBYTE_TEST_JOBS", "2"))) as pool:
    for (check, path), error in zip(jobs, pool.map(lambda job: job[0](job[1]), jobs)):
        if error:
            failures.append("%s: %s" % (path, error))
            print("FAIL", failures[-1])
with tempfile.TemporaryDirectory() as tmp:
    for error in (three_edits(tmp), room_diff(tmp), ghost_over_map()):
        if error:
            failures.append(error)
            print("FAIL", error)
print("render sweep: %d maps; %d ghosts and replays (%d with samples, drawn); %d data.win files (%d rooms drawn): %s"
      % (len(maps), len(records), len(drawn_records), len(rooms), len(drawn_rooms),
         "ok" if not failures else "%d failure(s)" % len(failures)))
sys.exit(1 if failures else 0)
