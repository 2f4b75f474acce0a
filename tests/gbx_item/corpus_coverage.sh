#!/bin/sh
# Item-family coverage on the real files (core/gbx/item/item.c): every map (including the TM 1.0 ones,
# whose blocks are CGameCtnBlock nodes) and every macroblock is typed to its end, system configs
# have no opaque byte at all, items are typed up to their entity model (the one part left opaque),
# and no file's typed parse stops at a chunk of a class item.c describes.
set -u
rebyte=${REBYTE:-rebyte}
corpus=${REBYTE_SHARED:-../shared}/corpus/gbx
if [ ! -d "$corpus" ]; then
    echo "corpus not found: $corpus (set REBYTE_SHARED)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$rebyte" verify --json "$corpus" >"$tmp/verify.jsonl"
python3 - "$tmp/verify.jsonl" <<'PY'
import json, re, sys
# class parts (current and legacy) whose chunks item.c describes
OWN = "2E001 2400A 0301A 2E002 0301C 2403E 0310D 03120 03057 24007 0B005 0B013".split()
no_layout = re.compile(r"chunk 0x(%s)[0-9A-F]{3} has no known layout" % "|".join(OWN))
# where an item's typed parse may stop: inside a node of its entity model (or custom models)
ENTITY = re.compile(r"> chunks\[\d+\] > (phyModelCustom|visModelCustom|entityModelEdition|entityModel) > ")
fails, seen = 0, {"map": 0, "macroblock": 0, "config": 0, "item": 0}
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
    elif name.endswith(".SystemConfig.Gbx"):
        seen["config"] += 1
        if r.get("opaque_bytes") != 0 or r.get("opaque_tail"):
            fail("system config not fully typed:", name, r.get("opaque_bytes"))
    elif name.endswith((".Item.Gbx", ".Block.Gbx")):
        seen["item"] += 1
        if not stops or not all(ENTITY.search(n) for n in stops):
            fail("item not typed up to its entity model:", name, stops)
        # (derived values are not model bytes: sizes, counts, and the header's copies of the
        # collector's ident, page and name, which the writer derives from the body)
        elif r.get("typed_bytes", 0) < 250:
            fail("item typed coverage too small:", name, r.get("typed_bytes"))
for kind, count in seen.items():
    if count == 0:
        fail("no %s file in the corpus" % kind)
print("item family corpus: %s, %d failures" % (", ".join("%d %ss" % (v, k) for k, v in seen.items()), fails))
sys.exit(1 if fails else 0)
PY
