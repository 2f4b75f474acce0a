#!/usr/bin/env python3
"""Clean output streams (docs/usage.md "Where outputs go"): every command that writes a
file writes, with -o -, only the file's bytes to stdout, byte-equal to what -o FILE writes, and
its reports to stderr; --print-patch prints the patch alone (parsed here as JSON) and works
without -o. Runs on the project's samples.
Usage: clean_streams.py REBYTE SOURCE_DIR"""
import json, os, subprocess, sys, tempfile

rebyte, source = sys.argv[1], sys.argv[2]
samples = os.path.join(source, "samples")
failures = []


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True)


def same_stream(name, args, tmp):
    """`rebyte ARGS -o FILE` and `rebyte ARGS -o -`: the same bytes, nothing else on stdout."""
    path = os.path.join(tmp, name.replace(" ", "_"))
    to_file, to_stdout = run(*args, "-o", path), run(*args, "-o", "-")
    if to_file.returncode != 0 or to_stdout.returncode != 0:
        failures.append(f"{name}: exit {to_file.returncode} / {to_stdout.returncode}: "
                        f"{(to_file.stderr or to_stdout.stderr).decode(errors='replace')[:300]}")
        return
    if to_file.stdout:
        failures.append(f"{name}: -o FILE printed on stdout: {to_file.stdout[:120]!r}")
    written = open(path, "rb").read()
    if to_stdout.stdout != written:
        failures.append(f"{name}: -o - gave {len(to_stdout.stdout)} bytes, -o FILE {len(written)}"
                        f" (stdout begins {to_stdout.stdout[:60]!r})")


def parses_as_json(name, result):
    if result.returncode != 0:
        failures.append(f"{name}: exit {result.returncode}: {result.stderr.decode(errors='replace')[:300]}")
        return None
    try:
        return json.loads(result.stdout)
    except ValueError as e:
        failures.append(f"{name}: stdout is not JSON ({e}): {result.stdout[:120]!r}")
        return None


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    map_ = os.path.join(samples, "gbx", "sample.Map.Gbx")
    patch = os.path.join(samples, "gbx", "rename-and-retime.patch.json")
    win = os.path.join(samples, "datawin", "sprites.win")
    run("dump", map_, "-o", t("map.json"))
    run("convert", "--to", "text", map_, "-o", t("map.txt"))
    run("extract", win, "-o", t("assets"))
    page = json.load(open(t("assets/manifest.json")))["assets"][0]

    same_stream("rewrite", ["rewrite", map_], tmp)
    same_stream("dump", ["dump", map_], tmp)
    same_stream("dump --blobs=base64", ["dump", "--blobs=base64", map_], tmp)
    same_stream("build", ["build", t("map.json")], tmp)
    same_stream("apply", ["apply", patch, map_], tmp)
    same_stream("downgrade-items", ["downgrade-items", map_], tmp)
    same_stream("convert --to text", ["convert", "--to", "text", map_], tmp)
    same_stream("convert --to binary", ["convert", "--to", "binary", t("map.txt")], tmp)
    same_stream("replace", ["replace", win, page["path"], t("assets/" + page["file"])], tmp)

    printed = parses_as_json("downgrade-items --print-patch", run("downgrade-items", map_, "--print-patch"))
    if printed is not None and not (isinstance(printed, list) and printed):
        failures.append("downgrade-items --print-patch: not a non-empty RFC 6902 array")
    if printed:  # the printed patch does what the command does
        json.dump(printed, open(t("printed.json"), "w"))
        run("downgrade-items", map_, "-o", t("down.Gbx"))
        run("apply", t("printed.json"), map_, "-o", t("applied.Gbx"))
        if open(t("down.Gbx"), "rb").read() != open(t("applied.Gbx"), "rb").read():
            failures.append("downgrade-items --print-patch: applying the printed patch gives other bytes")
    both = run("downgrade-items", map_, "--print-patch", "-o", t("with-patch.Gbx"))
    parses_as_json("downgrade-items --print-patch -o FILE", both)
    if run("downgrade-items", map_, "--print-patch", "-o", "-").returncode == 0:
        failures.append("downgrade-items --print-patch -o -: the patch and the map mixed on stdout")

for f in failures:
    print("FAIL", f)
print(f"clean streams: 9 commands with -o - against -o FILE, --print-patch as JSON ({len(failures)} failures)")
sys.exit(1 if failures else 0)
