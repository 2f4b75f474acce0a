#!/bin/sh
# Typed coverage of map header chunks and skippable map chunks over the corpus: every header
# chunk of every map (and of maps inside replays) is typed, and no skippable map chunk this
# module describes is left opaque (061 included: its frame and zero fill are typed, its payload
# stays opaque inside; TMUnlimiter's 0x3F001003 included).
. "$(dirname "$0")/../lib.sh"
corpus=${REBYTE_SHARED:-}/corpus/gbx
[ -d "$corpus" ] || { echo "corpus not found at $corpus: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 77; }
n=0
for f in "$corpus"/*.Map.Gbx "$corpus"/*.Challenge.Gbx "$corpus"/*.Replay.Gbx "$corpus"/*.Item.Gbx "$corpus"/*.Macroblock.Gbx; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    "$rebyte" dump "$f" --blobs=omit -o "$tmp/$n.json" 2>"$tmp/err" || { echo "FAIL dump $f: $(cat "$tmp/err")"; exit 1; }
    echo "$f" > "$tmp/$n.name"
done
[ "$n" -gt 0 ] || { echo "no map files in $corpus: skipped"; exit 77; }
python3 - "$tmp" "$n" <<'PY'
import json, sys
tmp, n = sys.argv[1], int(sys.argv[2])
header_ids = {0x03043002, 0x03043003, 0x03043004, 0x03043005, 0x03043007, 0x03043008,
              0x2E001003, 0x2E001004, 0x2E001006, 0x2E002000, 0x2E002001}
unknown = {0x03043040}  # 040 belongs to anchored.c
def current(raw):
    return 0x03043000 | (raw & 0xFFF) if raw & 0xFFFFF000 == 0x24003000 else raw
bad = []
counts = {"header": 0, "body": 0}
def walk(x, name):
    if isinstance(x, dict):
        for h in x.get("headerChunks", []):
            cid = current(int(h["id"], 16))
            if cid in header_ids:
                counts["header"] += 1
                if "data" in h: bad.append((name, h["id"], "header chunk kept opaque"))
        cid = x.get("id")
        if isinstance(cid, str) and cid.startswith("0x"):
            c = current(int(cid, 16))
            if c in (0x3F001002, 0x3F001003) and "data" in x:
                bad.append((name, cid, "TMUnlimiter chunk kept opaque"))
            if c & 0xFFFFF000 == 0x03043000 and 0x14 <= (c & 0xFFF) <= 0x6B and c not in unknown and "data" in x:
                bad.append((name, cid, "skippable map chunk kept opaque"))
            elif c & 0xFFFFF000 == 0x03043000 and "data" not in x:
                counts["body"] += 1
        for v in x.values(): walk(v, name)
    elif isinstance(x, list):
        for v in x: walk(v, name)
for i in range(1, n + 1):
    walk(json.load(open(f"{tmp}/{i}.json")), open(f"{tmp}/{i}.name").read().strip())
for b in bad: print("FAIL", *b)
print(f"{counts['header']} header chunks typed, {counts['body']} map body chunks typed, {len(bad)} failures")
sys.exit(1 if bad else 0)
PY
