#!/bin/sh
# Item-family coverage on the real files (core/gbx/item/): every map (including the TM 1.0 ones,
# whose blocks are CGameCtnBlock nodes) and every macroblock is typed to its end, system configs
# have no opaque byte at all, items are typed down to their mesh (no typed parse stops; the one
# opaque part left is a 32-byte skippable chunk, see
# docs/formats/gbx_item.md "What stays opaque, and why"), no file's typed parse stops at a chunk
# of a class the item files describe, and every file embedded in a map (items, meshes, shapes) is
# typed as a GBX file. The old solid (TrackMania Sunrise's Ground.Solid.Gbx, a CPlugSolid tree) has
# no opaque byte (docs/formats/gbx_solid.md "Tests").
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
"$rebyte" verify --json "$corpus" >"$tmp/verify.jsonl"
python3 - "$tmp/verify.jsonl" <<'PY'
import json, re, sys
# class parts (current and legacy) whose chunks item.c describes
OWN = ("2E001 2400A 0301A 2E002 0301C 2403E 0310D 03120 03057 24007 0B005 0B013 "
       "2E026 2E027 2E025 2E020 09003 09051 090FD 0900C 090BA 090BB 09006 0902C 0906A 09056 09057 "
       "2E006 2E007 090F9 09005 0904F 09062 09015 0900D").split()
item_opaque = 0
no_layout = re.compile(r"chunk 0x(%s)[0-9A-F]{3} has no known layout" % "|".join(OWN))
fails, seen = 0, {"map": 0, "macroblock": 0, "config": 0, "item": 0, "item without an opaque byte": 0, "solid": 0}
def fail(*what):
    global fails
    print("FAIL", *what); fails += 1
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("summary"):
        continue
    name = r["file"].rsplit("/", 1)[-1]
    if r.get("status") != "exact":
        fail("not exact:", name)
    stops = [n for n in r.get("notes", []) if "typed parse stopped" in n]
    for note in stops:
        if no_layout.search(note):
            fail("typed parse stops at an item-family chunk:", name, note)
    if name.endswith((".Challenge.Gbx", ".Map.Gbx")) or name.endswith(".Macroblock.Gbx"):
        seen["macroblock" if "Macroblock" in name else "map"] += 1
        if r.get("opaque_tail") or stops:
            fail("not typed to its end:", name, stops)
    elif name.endswith(".Solid.Gbx"):
        seen["solid"] += 1
        if r.get("opaque_bytes") != 0 or r.get("opaque_tail") or stops:
            fail("old solid not fully typed:", name, r.get("opaque_bytes"), stops)
    elif name.endswith(".SystemConfig.Gbx"):
        seen["config"] += 1
        if r.get("opaque_bytes") != 0 or r.get("opaque_tail"):
            fail("system config not fully typed:", name, r.get("opaque_bytes"))
    elif name.endswith((".Item.Gbx", ".Block.Gbx")):
        seen["item"] += 1
        item_opaque += r.get("opaque_bytes", 0)
        if stops or r.get("opaque_tail"):
            fail("item not typed to its end:", name, stops)
        # (derived values are not model bytes: sizes, counts, and the header's copies of the
        # collector's ident, page and name, which the writer derives from the body)
        elif r.get("typed_bytes", 0) < 800:
            fail("item typed coverage too small:", name, r.get("typed_bytes"))
        elif r.get("opaque_bytes") == 0:
            seen["item without an opaque byte"] += 1
for kind, count in seen.items():
    if count == 0:
        fail("no %s file in the corpus" % kind)
if seen["item without an opaque byte"] < 8:
    fail("only %d items without an opaque byte (8 were)" % seen["item without an opaque byte"])
if item_opaque > 32:
    fail("items hold %d opaque bytes (32 were: 9b499f1f's placement class version 6)" % item_opaque)
print("item family corpus: %s, %d failures" % (", ".join("%d %ss" % (v, k) for k, v in seen.items()), fails))
sys.exit(1 if fails else 0)
PY
status=$?

# the files embedded in maps (0x03043054): every one is typed as a GBX file to its end (a file
# whose typed parse stops is kept as the zip entry's bytes, "data"); the maps dumped, and the
# dumps read by one interpreter (not one a map)
mkdir "$tmp/maps"
for map in "$corpus"/*.Map.Gbx; do
    "$rebyte" dump "$map" -o "$tmp/maps/$(basename "$map").json" 2>/dev/null || rm -f "$tmp/maps/$(basename "$map").json"
done
python3 - "$tmp/maps" <<'PY' || status=1
import json, os, sys
failed = False
for name in sorted(os.listdir(sys.argv[1])):
    doc = json.load(open(os.path.join(sys.argv[1], name)))
    bad, good = [], 0
    for chunk in doc["body"]["chunks"]:
        if chunk.get("id") != "0x03043054":
            continue
        for f in chunk.get("embeddedZipData", {}).get("files", []):
            if "file" in f["content"]:
                good += 1
            else:
                bad.append(f["name"])
    map_name = name[:-len(".json")]
    if good:
        print("%s: %d embedded files typed" % (map_name, good))
    if bad:
        print("FAIL %s: embedded files not typed: %s" % (map_name, bad))
        failed = True
sys.exit(1 if failed else 0)
PY
exit $status
