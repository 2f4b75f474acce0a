#!/usr/bin/env python3
"""One patch for every map (docs/usage.md "One patch, every element"): the gallery's
raise-blocks.patch.json ("each" and "offset" [0, 1, 0] on every block's coord, in the blocks chunk
of every era) applied by `rebyte apply --patch P -j2 --in-place` to copies of every map of the
given folders. Each map is then either raised - every block coordinate of the dump is the
original's with y + 1, x and z unchanged, the block count kept, and `rebyte verify` finds the
file exact - or left byte-identical and named in the batch's "not patched" summary with the reason
(a y that would pass 255 names the block: "does not fit a u8"). Any other outcome fails.
Usage: raise_blocks_batch.py REBYTE PATCH MAP_DIR..."""
import json, os, shutil, subprocess, sys, tempfile

rebyte, patch, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
REASONS = ("does not fit a u8", "breaks the game rule")


def run(*args):
    return subprocess.run([rebyte, *args], capture_output=True, text=True)


def coords(path):
    """Every block coordinate of the map, in order: 0x0304301F and 0x03043013 blocks, and the
    beta's block nodes (chunk 0x03057002) in 0x0304300F."""
    p = subprocess.run([rebyte, "dump", path], capture_output=True)
    if p.returncode:
        return None
    out = []
    for c in json.loads(p.stdout)["body"].get("chunks", []):
        tail = str(c.get("id", ""))[-3:].upper()
        for b in c.get("blocks", []) if tail in ("01F", "013", "00F") else []:
            if not isinstance(b, dict):
                continue
            if tail != "00F" and "coord" in b:
                out.append(b["coord"])
            for k in b.get("chunks") or []:
                if str(k.get("id", "")).upper().endswith("7002") and "coord" in k:
                    out.append(k["coord"])
    return out


with tempfile.TemporaryDirectory() as tmp:
    originals = {}
    for folder in folders:
        if not os.path.isdir(folder):
            print(f"note: {folder} not found (set REBYTE_SHARED)")
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith((".Map.Gbx", ".Challenge.Gbx")) and name not in originals:
                originals[name] = os.path.join(folder, name)
                shutil.copy(originals[name], os.path.join(tmp, name))
    if not originals:
        print("SKIP: no maps")
        sys.exit(77)
    copies = [os.path.join(tmp, n) for n in originals]
    batch = run("apply", "--patch", patch, "-j2", "--in-place", *copies)
    failures, raised, refused, blocks = [], 0, 0, 0
    for name, original in originals.items():
        copy = os.path.join(tmp, name)
        same = open(original, "rb").read() == open(copy, "rb").read()
        if same:
            lines = [l for l in batch.stderr.splitlines() if name in l and "raise-blocks" in l]
            if lines and any(r in lines[-1] for r in REASONS):
                refused += 1
            else:
                failures.append(f"{name}: unchanged, and the batch does not say why: {lines[-1:] or batch.returncode}")
            continue
        before, after = coords(original), coords(copy)
        if not before or after is None or len(before) != len(after):
            failures.append(f"{name}: {len(before or [])} blocks before, {len(after or [])} after")
        elif any(a != [b[0], b[1] + 1, b[2]] for b, a in zip(before, after)):
            failures.append(f"{name}: a block is not one block up")
        elif run("verify", copy).returncode != 0:
            failures.append(f"{name}: the result does not verify exactly")
        else:
            raised += 1
            blocks += len(before)
    for f in failures:
        print("FAIL", f)
    print(f"raise-blocks over {len(originals)} maps with -j2: {raised} raised ({blocks} block coordinates), "
          f"{refused} refused with their reason, {len(failures)} failed")
    sys.exit(1 if failures else 0)
