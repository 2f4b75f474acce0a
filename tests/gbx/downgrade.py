#!/usr/bin/env python3
"""Items downgrade on every map that has an items chunk of version 5 or more:
the output verifies, re-reads with version 4 and the same anchored objects (every field),
every other chunk is unchanged, a second downgrade changes nothing, and --items-version 7
rewrites every object at version 7. Runs on the bundled sample, and on the corpus when present.
Usage: gbx_downgrade.py REBYTE SAMPLE_DIR CORPUS_DIR"""
import json, os, subprocess, sys, tempfile

rebyte, sample_dir, corpus_dir = sys.argv[1:4]
ITEMS = "0x03043040"
# The corpus maps whose items chunk is version 5, 6 or 7 (docs/formats/gbx.md "Items in maps").
EXPECTED = {"2ef8a52e", "4876fbb7", "70694b2c", "b4205250", "b6d073c1", "bb83a72c", "b9ea06d1",
            "87fa22c5", "8c0fbe56", "9963043b", "a8da9d84", "be63968b"}
failures = []

def run(*args, check=True):
    p = subprocess.run([rebyte, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError(f"rebyte {' '.join(args)} -> {p.returncode}: {p.stderr.strip()}")
    return p

def model(path):
    return json.loads(run("dump", "--blobs=base64", path).stdout)

def items_chunk(m):
    for c in m["body"]["chunks"]:
        if c.get("id") == ITEMS and "version" in c:
            return c
    return None

def check_map(path, tmp):
    name = os.path.basename(path)
    before = model(path)
    items = items_chunk(before)
    if items is None or items["version"] < 5:
        return False
    out = os.path.join(tmp, "down.Gbx")
    run("downgrade-items", "-q", path, "-o", out)
    if "1/1 exact" not in run("verify", out).stdout:
        failures.append(f"{name}: downgraded output does not verify exactly")
    after = model(out)
    new = items_chunk(after)
    if new is None or new["version"] != 4:
        failures.append(f"{name}: output items chunk is not version 4")
        return True
    if new["anchoredObjects"] != items["anchoredObjects"]:
        failures.append(f"{name}: anchored objects changed")
    expected_pairs = items.get("itemsOnItem", [])
    if new.get("itemsOnItem") != expected_pairs:
        failures.append(f"{name}: items-on-item list not kept ({new.get('itemsOnItem')} vs {expected_pairs})")
    for field in ("blockIndexes", "snapItemGroups", "itemIndexes", "u01", "snappedOnIndexes"):
        if field in new:
            failures.append(f"{name}: {field} survived the downgrade")
    others_before = [c for c in before["body"]["chunks"] if c.get("id") != ITEMS]
    others_after = [c for c in after["body"]["chunks"] if c.get("id") != ITEMS]
    if others_before != others_after or before["body"].get("opaqueTail") != after["body"].get("opaqueTail"):
        failures.append(f"{name}: a chunk other than the items chunk changed")
    if before.get("headerChunks") != after.get("headerChunks"):
        failures.append(f"{name}: header chunks changed")
    again = os.path.join(tmp, "again.Gbx")
    run("downgrade-items", "-q", out, "-o", again)
    if open(out, "rb").read() != open(again, "rb").read():
        failures.append(f"{name}: a second downgrade changed the file")
    v7 = os.path.join(tmp, "v7.Gbx")
    run("downgrade-items", "-q", "--items-version", "7", path, "-o", v7)
    objects = items_chunk(model(v7))["anchoredObjects"]
    versions = {c["version"] for o in objects for c in o["chunks"] if c.get("id") == "0x03101002"}
    if objects and versions != {7}:
        failures.append(f"{name}: --items-version 7 left object versions {versions}")
    return True

def main():
    maps = sorted(os.path.join(sample_dir, f) for f in os.listdir(sample_dir) if f.endswith(".Map.Gbx"))
    corpus = os.path.isdir(corpus_dir)
    if corpus:
        maps += sorted(os.path.join(corpus_dir, f) for f in os.listdir(corpus_dir) if f.endswith(".Map.Gbx"))
    else:
        print(f"note: corpus not found at {corpus_dir} (set REBYTE_SHARED); sample only")
    done = unreached = 0
    downgraded = set()
    with tempfile.TemporaryDirectory() as tmp:
        for path in maps:
            name = os.path.basename(path)
            try:
                if check_map(path, tmp):
                    done += 1
                    downgraded.add(name.split("_")[0])
            except RuntimeError as e:
                failures.append(f"{name}: {e}")
            p = run("downgrade-items", "--dry-run", "-q", path, check=False)
            if "not reached by the typed parse" in p.stderr and name.split("_")[0] in EXPECTED:
                unreached += 1
                failures.append(f"{name}: items chunk not reached by the typed parse")
    if corpus:
        for prefix in sorted(EXPECTED - downgraded):
            failures.append(f"corpus map {prefix}: expected an items chunk >= 5, not downgraded")
    for f in failures:
        print("FAIL", f)
    print(f"downgrade: {done} maps with items chunk >= 5 downgraded and checked, {unreached} not reached, "
          f"{len(failures)} failures")
    return 1 if failures or done == 0 else 0

sys.exit(main())
