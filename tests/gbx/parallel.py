#!/usr/bin/env python3
"""Blocks and items are one operation: on the bundled sample and every corpus and public map with
items or per-block chunks, removing three items and inserting one (four operations), and
removing, moving and copying blocks, keep every list that holds one entry per item or block in
step (040 snappedOnIndexes, 062, 063, 065, 068, 069, 05F) and every index pointing at the same
object as before (040 blockIndexes, itemIndexes, items-on-item pairs). The output verifies
exactly and `rebyte check` finds nothing new.
Usage: gbx_parallel.py REBYTE SAMPLE_MAP CORPUS_DIR [MORE_DIRS...]"""
import json, os, subprocess, sys, tempfile

rebyte, sample, corpus = sys.argv[1:4]
more_folders = [d for d in sys.argv[4:] if os.path.isdir(d)]  # the public maps, where gathered
failures, done = [], {"items": 0, "blocks": 0}
ITEM_LISTS = {"040": "snappedOnIndexes", "062": "items", "063": "animPhaseOffsets", "065": "items", "068": "items", "069": "items"}
BLOCK_LISTS = {"062": "blocks", "068": "blocks", "069": "blocks"}


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True, text=True)


def chunks(path):
    p = run("dump", "--blobs=base64", path)
    if p.returncode:
        return None
    return {c["id"][-3:]: c for c in json.loads(p.stdout)["body"].get("chunks", []) if "id" in c}


def in_step(name, ch, what):
    items = ch.get("040", {}).get("anchoredObjects")
    blocks = ch.get("01F", {}).get("blocks")
    for low, key in ITEM_LISTS.items():
        if items is not None and key in ch.get(low, {}) and len(ch[low][key]) != len(items):
            failures.append(f"{name}: {what}: chunk {low} {key} has {len(ch[low][key])} for {len(items)} items")
    for low, key in BLOCK_LISTS.items():
        if blocks is not None and key in ch.get(low, {}) and len(ch[low][key]) != len(blocks):
            failures.append(f"{name}: {what}: chunk {low} {key} has {len(ch[low][key])} for {len(blocks)} blocks")
    if blocks is not None and "freeBlocks" in ch.get("05F", {}):
        baked = ch.get("048", {}).get("bakedBlocks", [])
        free = sum(1 for b in blocks + baked if int(b["flags"], 16) & 0x20000000 and b["flags"] != "0xFFFFFFFF")
        if free != len(ch["05F"]["freeBlocks"]):
            failures.append(f"{name}: {what}: 05F has {len(ch['05F']['freeBlocks'])} positions for {free} free blocks")


def block_targets(ch):
    """The blocks the snapping entries point at, by name and place (-1 stays -1)."""
    blocks = ch["01F"]["blocks"]
    return [None if i < 0 else (blocks[i]["name"], tuple(blocks[i]["coord"])) for i in ch.get("040", {}).get("blockIndexes", [])]


def apply(path, ops, tmp, what):
    pf, out = os.path.join(tmp, "p.json"), os.path.join(tmp, "out.Gbx")
    json.dump(ops, open(pf, "w"))
    p = run("apply", "-q", pf, path, "-o", out)
    if p.returncode:
        failures.append(f"{os.path.basename(path)}: {what}: {p.stderr.strip()[:300]}")
        return None
    if run("verify", "-q", out).returncode:
        failures.append(f"{os.path.basename(path)}: {what}: the output does not verify")
    before = {l.split(": ", 1)[1] for l in run("check", path).stdout.splitlines() if not l.endswith(": ok")}
    after = {l.split(": ", 1)[1] for l in run("check", out).stdout.splitlines() if not l.endswith(": ok")}
    if after - before:
        failures.append(f"{os.path.basename(path)}: {what}: check finds {sorted(after - before)[:3]}")
    return chunks(out)


def items_test(path, ch, tmp):
    objects = ch["040"]["anchoredObjects"]
    n = len(objects)
    if n < 4:
        return
    base = "/body/chunks/[id=0x03043040]/anchoredObjects"
    ops = [{"op": "remove", "path": f"{base}/{n - 1}"}, {"op": "remove", "path": f"{base}/{n // 2}"},
           {"op": "remove", "path": f"{base}/0"}, {"op": "add", "path": f"{base}/1", "value": objects[2]}]
    after = apply(path, ops, tmp, "three items removed, one inserted")
    if after is None:
        return
    if len(after["040"]["anchoredObjects"]) != n - 2:
        failures.append(f"{os.path.basename(path)}: items: {len(after['040']['anchoredObjects'])} items, not {n - 2}")
    in_step(os.path.basename(path), after, "items")
    if "snappedOnIndexes" in after["040"] and after["040"]["snappedOnIndexes"][1] != -1:
        failures.append(f"{os.path.basename(path)}: the inserted item is not unsnapped (-1)")
    done["items"] += 1


def blocks_test(path, ch, tmp):
    blocks = ch["01F"]["blocks"]
    if len(blocks) < 4 or not any(low in ch for low in ("062", "069", "05F", "040")):
        return
    base = "/body/chunks/[id=0x0304301F]/blocks"
    removed = next((i for i, b in enumerate(blocks) if int(b["flags"], 16) & 0x20000000), 1)
    # copy a block that defines no node of its own (a waypoint or skin node is defined once per file)
    plain = [i for i, b in enumerate(blocks) if i not in (removed, 0) and '"classId"' not in json.dumps(b)]
    if not plain:
        return
    source = plain[0] - (1 if plain[0] > removed else 0)
    source = source - (1 if source <= 2 and source > 0 else 0) if source <= 2 else source
    ops = [{"op": "remove", "path": f"{base}/{removed}"}, {"op": "move", "from": f"{base}/0", "path": f"{base}/2"},
           {"op": "copy", "from": f"{base}/{source}", "path": f"{base}/-"}]
    after = apply(path, ops, tmp, "blocks removed, moved, copied")
    if after is None:
        return
    in_step(os.path.basename(path), after, "blocks")
    if "040" in ch and "blockIndexes" in ch["040"]:
        gone = (blocks[removed]["name"], tuple(blocks[removed]["coord"]))
        want = [None if t == gone else t for t in block_targets(ch)]
        got = block_targets(after)
        if got != want:
            bad = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b) if len(got) == len(want) else "count"
            failures.append(f"{os.path.basename(path)}: a snapping entry points at another block after the edit ({bad})")
    done["blocks"] += 1


maps = [sample]
if os.path.isdir(corpus):
    for folder in [corpus] + more_folders:
        maps += sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith((".Map.Gbx", ".Challenge.Gbx")))
else:
    print(f"corpus not found at {corpus}: the bundled sample only")
with tempfile.TemporaryDirectory() as tmp:
    for m in maps:
        ch = chunks(m)
        if not ch:
            continue
        if "anchoredObjects" in ch.get("040", {}):
            items_test(m, ch, tmp)
        if "blocks" in ch.get("01F", {}):
            blocks_test(m, ch, tmp)
for f in failures:
    print("FAIL", f)
print(f"parallel lists: {done['items']} maps had three items removed and one inserted, {done['blocks']} maps had "
      f"blocks removed, moved and copied; {len(failures)} failures")
sys.exit(1 if failures or (os.path.isdir(corpus) and done["items"] < 10) else 0)
