#!/usr/bin/env python3
"""The many-operation item patch whose apply is timed against rewrite:
docs/performance.md "Where a one-field apply spends".
COUNT items of a map (every 7th, default 200) each moved 1 m along x, one
"replace" of its absolutePositionInMap per item, addressed through the items chunk's selector.
Usage: make_item_patch.py REBYTE MAP PATCH_OUT [COUNT]. Time it against `rewrite` of the same map
with farm-bench (rebyte apply --patch PATCH_OUT MAP -o OUT)."""
import json, subprocess, sys, tempfile, os

rebyte, map_path, out_path = sys.argv[1:4]
count = int(sys.argv[4]) if len(sys.argv) > 4 else 200
with tempfile.TemporaryDirectory() as tmp:
    dump_path = os.path.join(tmp, "map.json")
    subprocess.run([rebyte, "dump", map_path, "-o", dump_path], check=True, capture_output=True)
    dump = json.load(open(dump_path, encoding="utf-8"))
items = next(c["anchoredObjects"] for c in dump["body"]["chunks"] if c.get("id") == "0x03043040")
if len(items) < 7 * (count - 1) + 1:
    sys.exit(f"{map_path}: {len(items)} items, too few for {count} edits every 7th")
ops = []
for k in range(count):
    i = 7 * k
    x, y, z = items[i]["chunks"][0]["absolutePositionInMap"]
    ops.append({"op": "replace", "value": [x + 1.0, y, z],
                "path": f"/body/chunks/[id=0x03043040]/anchoredObjects/{i}/chunks/0/absolutePositionInMap"})
json.dump(ops, open(out_path, "w"))
print(f"{out_path}: {count} items moved")
