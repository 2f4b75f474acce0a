#!/usr/bin/env python3
"""Pictures as pictures in diffs (docs/usage.md "Diffs"), run by picture_diff_test.sh: on each
data.win given, one sprite frame recoloured (its opaque pixels, same size) through `replace`; then
 1. `rebyte diff` (pinned, by position) and `rebyte diff --by-identity` are one operation each,
    a {"$png"} replace of that frame (no page, no base64 of it), at most 4x the size of the
    frame's PNG, and apply of either to the original gives the edited file's bytes;
 2. the identity diff applied to another build of the game (the original with another frame
    grown onto a bigger page and a room renamed: other page bytes, other item coordinates)
    puts exactly that frame's pixels there;
 3. applied to a build whose sprite has another name, it is refused, naming the selector.

One python for the whole run (not one a step and file: its start-ups were a fifth of the
test's CPU), the files REBYTE_TEST_JOBS at a time (default 2), largest first; the edited file is
not extracted again where the other build's extract shows the frame (its pixels are compared
with the recoloured ones, which is what the edited file's frame was compared with before).

usage: picture_diff.py REBYTE TMP FILE...
"""
import concurrent.futures
import io
import json
import os
import subprocess
import sys
import tarfile

from extract_picture import read_png, write_png

REBYTE, TMP = sys.argv[1], sys.argv[2]


def rebyte(*args):
    return subprocess.run([REBYTE, *args], capture_output=True)


def png(path, width, height, rows):
    write_png(path, width, height, rows, colour_type=6)


def recoloured(rows, width):
    """The frame with the red of every pixel that is not fully transparent flipped."""
    out = []
    for line in rows:
        line = bytearray(line)
        for x in range(width):
            if line[4 * x + 3]:
                line[4 * x] ^= 0x80
        out.append(line)
    return out


def extract(win, folder, wanted):
    """`extract --only image` of `win` as one tar stream (not a file a picture: hundreds for a
    game), of which manifest.json and the files `wanted` names (a function of the manifest) are
    written to `folder`. False when extract fails."""
    r = rebyte("extract", "-q", "--only", "image", win, "-o", "-")
    if r.returncode:
        return False
    with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tar:
        manifest = tar.extractfile("manifest.json").read()
        os.makedirs(folder)
        with open(os.path.join(folder, "manifest.json"), "wb") as f:
            f.write(manifest)
        names = set(tar.getnames())
        for name in wanted(json.loads(manifest)):
            if name not in names:  # not extracted: the checks that read it say so
                continue
            os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(tar.extractfile(name).read())
    return True


def pick(manifest):
    """The first sprite frame whose PNG is not tiny (a diff has an envelope of its own), and a
    frame of another sprite for the other build (or None)."""
    frames = [a for a in manifest["assets"]
              if "/sprites/" in a["path"] and "/frames/" in a["path"] and a["replaceable"]]
    edit = next((a for a in frames if a["size"] >= 200), None)
    if edit is None:
        return None, None
    sprite = edit["path"].rsplit("/frames/", 1)[0]
    return edit, next((a for a in frames if not a["path"].startswith(sprite + "/")), None)


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)


def check_diff(diff, path, mode):
    """The diff's one operation: a {"$png"} replace at the frame (pinned path or by identity)."""
    ops = [o for o in json.load(open(diff))["operations"] if o["op"] != "test"]
    assert len(ops) == 1, "%d operations: %s" % (len(ops), [o["path"] for o in ops])
    op = ops[0]
    assert op["op"] == "replace" and list(op["value"]) == ["$png"], op["path"]
    if mode == "index":
        assert op["path"] == path, op["path"]
    else:
        assert "[name=" in op["path"] and op["path"].endswith("/frames/" + path.rsplit("/", 1)[1]), op["path"]


def one_file(win, work):
    """(failures, line): what failed on this file, and the line saying what was checked (None
    when the file has no frame to edit)."""
    name, fails = os.path.basename(win), []
    os.makedirs(work)
    at = lambda f: os.path.join(work, f)  # noqa: E731
    if not extract(win, at("x"), lambda manifest: [a["file"] for a in pick(manifest) if a]):
        return ["%s: extract" % name], None
    edit, other = pick(json.load(open(at("x/manifest.json"))))
    if edit is None:
        print("%s: no sprite frame to edit" % name)
        return [], None
    path, file = edit["path"], edit["file"]
    width, height, rows = read_png(at("x/" + file))
    edited_rows = recoloured(rows, width)
    png(at("edited.png"), width, height, edited_rows)
    r = rebyte("replace", "-q", win, path, at("edited.png"), "-o", at("b.win"))
    if r.returncode:
        return ["%s: replace %s: %s" % (name, path, r.stderr.decode(errors="replace").strip())], None
    edited = open(at("b.win"), "rb").read()
    # 1. one {"$png"} operation, exact (its size against the frame's PNG below)
    for mode, flag in (("index", []), ("identity", ["--by-identity"])):
        r = rebyte("diff", *flag, win, at("b.win"))
        if r.returncode != 1:
            fails.append("%s: diff %s" % (name, " ".join(flag)))
            continue
        open(at(mode + ".json"), "wb").write(r.stdout)
        try:
            check_diff(at(mode + ".json"), path, mode)
        except AssertionError as e:
            fails.append("%s: the %s diff: %s" % (name, mode, e))
        r = rebyte("apply", "-q", at(mode + ".json"), win, "-o", at("again.win"))
        if r.returncode or open(at("again.win"), "rb").read() != edited:
            fails.append("%s: apply(diff %s) does not give the edited file's bytes" % (name, " ".join(flag)))
    if not os.path.exists(at("identity.json")):
        return fails, None
    # 2. another build: another frame grown onto a bigger page (opaque), a room renamed, in one
    # apply ({"$file"} does what replace does); a file without a room gets the frame alone
    frame_png = at("y/" + file)
    if other is not None:
        w, h, _ = read_png(at("x/" + other["file"]))
        png(at("opaque.png"), w, h, [bytes((30, 200, 90, 255)) * w for _ in range(h)])
        frame_op = {"op": "replace", "path": other["path"], "value": {"$file": "opaque.png"}}
        write_json(at("build3.json"), [frame_op, {"op": "replace", "path": "/chunks/[id=ROOM]/rooms/0/name",
                                                  "value": "rebyte_other_build"}])
        if rebyte("apply", "-q", at("build3.json"), win, "-o", at("build3.win")).returncode:
            write_json(at("build3.json"), [frame_op])
            r = rebyte("apply", "-q", at("build3.json"), win, "-o", at("build3.win"))
            if r.returncode:
                return fails + ["%s: the other build: %s" % (name, r.stderr.decode(errors="replace").strip())], None
        if open(at("build3.win"), "rb").read() == open(win, "rb").read():
            fails.append("%s: the other build is the same file" % name)
        r = rebyte("apply", "-q", at("identity.json"), at("build3.win"), "-o", at("c.win"))
        if r.returncode:
            return fails + ["%s: the identity diff on another build: %s" % (name, r.stderr.decode(errors="replace").strip())], None
        if not extract(at("c.win"), at("z"), lambda manifest: [file, other["file"]]):
            return fails + ["%s: extract C" % name], None
        frame_png = at("z/" + file)
        if not os.path.exists(frame_png) or read_png(frame_png)[2] != edited_rows:
            fails.append("%s: on another build, %s is not the edited frame" % (name, file))
        if os.path.exists(at("z/" + other["file"])) and \
                open(at("z/" + other["file"]), "rb").read() == open(at("x/" + other["file"]), "rb").read():
            fails.append("%s: the other build's own frame was undone" % name)
    else:  # no other build: the edited file's own extract shows the frame
        if not extract(at("b.win"), at("y"), lambda manifest: [file]):
            return fails + ["%s: extract B" % name], None
        if not os.path.exists(frame_png) or read_png(frame_png)[2] != edited_rows:
            fails.append("%s: the edited file's %s is not the recoloured frame" % (name, file))
    if not os.path.exists(frame_png):
        return fails, None
    ratio = os.path.getsize(at("identity.json")) / os.path.getsize(frame_png)
    for mode in ("index", "identity"):
        size = os.path.getsize(at(mode + ".json"))
        if size > 4 * os.path.getsize(frame_png):
            fails.append("%s: the %s diff: %d bytes for a frame of %d (%.2fx)" % (
                name, mode, size, os.path.getsize(frame_png), size / os.path.getsize(frame_png)))
    # 3. a build without that sprite (renamed): refused, naming the selector
    write_json(at("rename.json"), [{"op": "replace", "path": path.rsplit("/frames/", 1)[0] + "/name",
                                    "value": "rebyte_no_such_sprite"}])
    if rebyte("apply", "-q", at("rename.json"), win, "-o", at("nosprite.win")).returncode:
        return fails + ["%s: rename the sprite" % name], None
    r = rebyte("apply", "-q", at("identity.json"), at("nosprite.win"), "-o", at("refused.win"))
    if r.returncode == 0:
        fails.append("%s: the identity diff applied to a build without the sprite" % name)
    elif b"matches 0 elements" not in r.stderr:
        fails.append("%s: without the sprite: %s" % (name, r.stderr.decode(errors="replace").strip()))
    return fails, "%s: %s (%s): one $png operation, %.2fx the frame's PNG" % (name, path, file, ratio)


def main():
    files = sorted(sys.argv[3:], key=os.path.getsize, reverse=True)
    jobs = max(1, int(os.environ.get("REBYTE_TEST_JOBS", "2")))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda i: one_file(files[i], os.path.join(TMP, "f%d" % i)), range(len(files))))
    failures, checked = [], 0
    for fails, line in sorted(results, key=lambda r: r[1] or ""):
        failures += fails
        if line and not fails:
            checked += 1
            print(line)
    for f in failures:
        print("FAIL", f)
    if not checked and not failures:
        print("FAIL no file checked")
        return 1
    if not failures:
        print("datawin pictures in diffs: ok (%d files)" % checked)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
