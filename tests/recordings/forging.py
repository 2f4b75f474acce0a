#!/usr/bin/env python3
"""No forged record on any command (docs/usage.md "Race recordings"). Over every ghost
and replay of the corpus (*.Ghost.Gbx, *.Replay.Gbx):
  text    convert --to text, then --to binary: refused without --source; with it the original's
          bytes; a string of the text changed (same length): refused, nothing written
  JSON    dump, build: the original's bytes; a string changed in the JSON: refused; a base64
          dump (no "$source") builds only with --source
  replace extract, then replace an asset with one byte changed: refused, nothing written
  apply   a patch replacing a string of the record: refused
Usage: forging.py REBYTE CORPUS_GBX_FOLDER (exit 77 when the folder is absent)."""
import json, os, subprocess, sys, tempfile

rebyte, folder = sys.argv[1], sys.argv[2]
if not os.path.isdir(folder):
    print("skipped: no corpus at", folder)
    sys.exit(77)
failures = []


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True)


def refused(what, result, out_path):
    if result.returncode == 0 or os.path.exists(out_path):
        failures.append(f"{what}: written (exit {result.returncode})")
    elif b"race recording" not in result.stderr and b"inside a race recording" not in result.stderr:
        failures.append(f"{what}: refused for another reason: {result.stderr.decode(errors='replace')[:300]}")


def same_file(what, result, out_path, original):
    if result.returncode != 0:
        failures.append(f"{what}: exit {result.returncode}: {result.stderr.decode(errors='replace')[:300]}")
    elif open(out_path, "rb").read() != original:
        failures.append(f"{what}: not the original's bytes")


def strings(value, path=""):
    """(pointer, text) of every non-empty string of a dump, in file order."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not k.startswith("$"):
                yield from strings(v, f"{path}/{k.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings(v, f"{path}/{i}")
    elif isinstance(value, str) and value and not value.startswith("0x") and "\n" not in value:
        yield path, value


def forged(text):
    """The same text with its first ASCII letter or digit changed: the same length in bytes."""
    i = next((i for i, c in enumerate(text) if c.isascii() and c.isalnum()), 0)
    return text[:i] + ("Y" if text[i] == "X" else "X") + text[i + 1:]


def check(path, tmp):
    name = os.path.basename(path)
    original = open(path, "rb").read()
    t = lambda n: os.path.join(tmp, n)
    # JSON
    run("dump", path, "-o", t("d.json"))
    same_file(f"{name}: build of the dump", run("build", t("d.json"), "-o", t("b.Gbx")), t("b.Gbx"), original)
    dump = json.load(open(t("d.json"), encoding="utf-8"))
    pointer, text = next(((p, s) for p, s in strings(dump) if "ickname" in p or "ogin" in p),
                         next(strings(dump), (None, None)))
    if pointer is None:
        failures.append(f"{name}: no string to change")
        return
    raw = open(t("d.json"), "rb").read()
    needle = json.dumps(text, ensure_ascii=False).encode()
    at = raw.find(needle)
    open(t("e.json"), "wb").write(raw[:at] + json.dumps(forged(text), ensure_ascii=False).encode() + raw[at + len(needle):])
    refused(f"{name}: build of a changed dump", run("build", t("e.json"), "-o", t("e.Gbx")), t("e.Gbx"))
    run("dump", "--blobs=base64", path, "-o", t("s.json"))
    refused(f"{name}: build of a base64 dump without --source", run("build", t("s.json"), "-o", t("s.Gbx")), t("s.Gbx"))
    same_file(f"{name}: build of a base64 dump --source", run("build", t("s.json"), "--source", path, "-o", t("s.Gbx")),
              t("s.Gbx"), original)
    # text
    if run("convert", "--to", "text", path, "-o", t("x.txt")).returncode == 0:
        refused(f"{name}: text to binary without --source", run("convert", "--to", "binary", t("x.txt"), "-o", t("x0.Gbx")),
                t("x0.Gbx"))
        same_file(f"{name}: text to binary --source",
                  run("convert", "--to", "binary", t("x.txt"), "--source", path, "-o", t("x1.Gbx")), t("x1.Gbx"), original)
        lines = open(t("x.txt"), "rb").read().split(b"\n")
        target = text.encode()
        # the last line that is the string: the body's, not a copy in a header chunk's bytes
        hit = next((i for i in reversed(range(len(lines))) if lines[i].rstrip(b"\r") == target), None)
        if hit is None:
            failures.append(f"{name}: the string {text!r} is not a line of the text form")
        else:
            lines[hit] = lines[hit].replace(target, forged(text).encode(), 1)
            open(t("y.txt"), "wb").write(b"\n".join(lines))
            refused(f"{name}: changed text to binary --source",
                    run("convert", "--to", "binary", t("y.txt"), "--source", path, "-o", t("y.Gbx")), t("y.Gbx"))
    else:
        failures.append(f"{name}: convert --to text failed")
    # replace after extract
    if run("extract", path, "-o", t("assets")).returncode == 0:
        manifest = json.load(open(t("assets/manifest.json"), encoding="utf-8"))
        for asset in manifest["assets"][:1]:
            data = bytearray(open(t("assets/" + asset["file"]), "rb").read())
            data[len(data) // 2] ^= 1
            open(t("asset.edited"), "wb").write(data)
            refused(f"{name}: replace of {asset['path']}", run("replace", path, asset["path"], t("asset.edited"), "-o",
                                                               t("r.Gbx")), t("r.Gbx"))
    # apply
    json.dump([{"op": "replace", "path": pointer, "value": forged(text)}], open(t("p.json"), "w"))
    refused(f"{name}: apply", run("apply", t("p.json"), path, "-o", t("a.Gbx")), t("a.Gbx"))


records = sorted(n for n in os.listdir(folder) if n.lower().endswith((".replay.gbx", ".ghost.gbx")))
for n in records:
    with tempfile.TemporaryDirectory() as tmp:
        check(os.path.join(folder, n), tmp)
for f in failures:
    print("FAIL", f)
print(f"{len(records)} ghosts and replays: text, JSON, replace and apply refuse a changed record, "
      f"unchanged round trips give the original ({len(failures)} failures)")
sys.exit(1 if failures or not records else 0)
