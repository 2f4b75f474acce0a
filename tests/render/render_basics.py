"""rebyte render on the project's samples (quick): a map's picture decodes (tests/cli/assets_check.py's
PNG reader: zlib and the PNG specification, not libpng) and shows what the --json says it drew; a patch of three edits is three changes, by
the patch and by the patched file; the errors."""
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from assets_check import png_decode  # noqa: E402

SIGNATURE = b"\x89PNG\r\n\x1a\n"

REBYTE, SOURCE = sys.argv[1], sys.argv[2]
MAP = os.path.join(SOURCE, "samples/gbx/sample.Map.Gbx")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL", what)


def run(*args):
    return subprocess.run([REBYTE, *args], capture_output=True)


def render_json(*args):
    r = run("render", *args, "--json")
    check(r.returncode == 0, "render %s: exit %d %s" % (args, r.returncode, r.stderr.decode()))
    return json.loads(r.stdout) if r.returncode == 0 else {}


with tempfile.TemporaryDirectory() as tmp:
    picture = os.path.join(tmp, "map.png")
    report = render_json(MAP, "-o", picture)
    info = json.loads(run("info", MAP, "--json").stdout)["map"]
    check(report["blocks"]["count"] + report["blocks"]["not_drawn"] == info["block_count"], "block count")
    check(report["items"]["count"] == info["items"]["count"], "item count")
    check(report["blocks"]["by_kind"] == {"road": 1, "start": 1, "finish": 1}, "kinds %r" % report["blocks"]["by_kind"])
    width, height = struct.unpack(">II", open(picture, "rb").read()[16:24])
    check((width, height) == (report["width"], report["height"]), "size %r" % ((width, height),))
    check(max(width, height) <= 1024, "at most 1024 pixels by default")
    small = render_json(MAP, "-o", picture, "--size", "512")
    width, height, rows = png_decode(open(picture, "rb").read())
    check((width, height) == (small["width"], small["height"]), "size %r at --size 512" % ((width, height),))
    map_rows = rows[: int(24 + small["cell_pixels"] * small["frame"][2])]  # the map, not the legend's swatches
    pixels = {bytes(r[i:i + 3]) for r in map_rows for i in range(0, len(r), 4)}
    greens = [p for p in pixels if p[1] > p[0] + 40 and p[1] > p[2]]  # the start cell
    reds = [p for p in pixels if p[0] > p[1] + 60 and p[0] > p[2] + 60]  # the finish cell
    yellows = [p for p in pixels if p[0] > 150 and p[1] > 130 and p[2] < 110]  # the items
    check(greens and reds and yellows, "the start, the finish and the items show on the map")

    # three edits: a block removed, an item moved, the name changed
    patch = os.path.join(tmp, "three.patch.json")
    dump = json.loads(run("dump", MAP).stdout)
    chunks = dump["body"]["chunks"]
    blocks = next(i for i, c in enumerate(chunks) if c["id"] == "0x0304301F")
    items = next(i for i, c in enumerate(chunks) if c["id"] == "0x03043040")
    place = next(k for k, c in enumerate(chunks[items]["anchoredObjects"][1]["chunks"]) if "absolutePositionInMap" in c)
    ops = [{"op": "remove", "path": "/body/chunks/%d/blocks/0" % blocks},
           {"op": "replace", "path": "/body/chunks/%d/anchoredObjects/1/chunks/%d/absolutePositionInMap" % (items, place),
            "value": [700.0, 80.0, 700.0]},
           {"op": "replace", "path": "/body/chunks/%d/mapName" % blocks, "value": "rebyte sample, reviewed"}]
    json.dump(ops, open(patch, "w"))
    for against in ("patch", "file"):
        other = patch
        if against == "file":
            other = os.path.join(tmp, "patched.Map.Gbx")
            check(run("apply", patch, MAP, "-o", other).returncode == 0, "apply")
        diff = render_json(MAP, "--diff", other, "-o", os.path.join(tmp, "diff.png")).get("diff", {})
        check(diff.get("changes") == 3, "%s: 3 changes, not %r" % (against, diff.get("changes")))
        check(len(diff.get("removed", [])) == 1 and len(diff.get("moved", [])) == 1 and len(diff.get("facts", [])) == 1,
              "%s: one removed, one moved, one fact: %r" % (against, diff))
        moved = diff.get("moved", [{}])[0]
        check(moved.get("to", [0])[0] == 700.0 / 32, "%s: moved to x 700 m: %r" % (against, moved))

    # the pictures in docs/images are what this build draws (pixels compared, not the deflate bytes)
    for name, extra in (("render-map.png", []), ("render-diff.png", ["--diff", os.path.join(SOURCE, "samples/gbx/review.patch.json")])):
        made = os.path.join(tmp, name)
        check(run("render", MAP, "-o", made, "--size", "512", *extra).returncode == 0, "render " + name)
        committed = os.path.join(SOURCE, "docs/images", name)
        check(png_decode(open(made, "rb").read()) == png_decode(open(committed, "rb").read()),
              "docs/images/%s is not what render draws (render samples/gbx/sample.Map.Gbx --size 512 %s)" % (name, " ".join(extra)))

    # stdout takes the picture, stderr the report
    r = run("render", MAP, "-o", "-", "--json")
    check(r.returncode == 0 and r.stdout.startswith(SIGNATURE) and b'"blocks"' in r.stderr, "-o -")
    check(run("render", MAP, "-o", picture, "--size", "2048").returncode == 0, "--size 2048")
    big = struct.unpack(">II", open(picture, "rb").read()[16:24])
    check(max(big) <= 2048 and max(big) > 1024, "--size 2048: %r" % (big,))
    check(run("render", MAP, "-o", picture, "--size", "4096").returncode == 64, "--size 4096 is refused")
    check(run("render", MAP).returncode == 64, "no -o")
    other_class = run("render", MAP, "--diff", os.path.join(SOURCE, "samples/gbx_ghost/minimal.Replay.Gbx"), "-o", picture)
    check(other_class.returncode == 2 and b"rebyte:" in other_class.stderr, "a map diffed to a replay is refused: %r"
          % ((other_class.returncode, other_class.stderr),))
    replay = run("render", os.path.join(SOURCE, "samples/gbx_ghost/minimal.Replay.Gbx"), "-o", picture)
    check(replay.returncode == 2 and b"no decoded samples" in replay.stderr, "a replay with nothing to draw")
    room = run("render", os.path.join(SOURCE, "samples/datawin/sample.win"), "-o", picture)
    check(room.returncode == 2 and b"no room" in room.stderr, "a data.win without instances")
    r = run("render", os.path.join(SOURCE, "samples/tres/box-130.pid"), "-o", picture)
    check(r.returncode == 2 and b"no picture" in r.stderr, "a format without plans: %r" % r.stderr)

print("render basics: %s" % ("ok" if not failures else "%d failure(s)" % len(failures)))
sys.exit(1 if failures else 0)
