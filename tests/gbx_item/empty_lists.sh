#!/bin/sh
# Lists the GBX reader knows only empty (crystal links, visual morphs, skeleton joint expressions,
# TMUnlimiter embedded blocks; docs/formats/gbx_item.md "What stays opaque, and why"): in the model of every
# corpus file that has one they are empty lists, never a count field, and a patch that adds an
# element to one is refused with an error naming the list, writing no output file.
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
keys='crystalLinks morphs jointExpressions embeddedBlocks'
found=0
for f in "$corpus"/*.Gbx; do
    "$rebyte" dump "$f" >"$tmp/model.json" 2>/dev/null || continue
    grep -q '"crystalLinkCount"\|"morphCount"\|"jointExprCount"\|"embeddedBlockCount"' "$tmp/model.json" &&
        fail "$f: a count field where the model has an empty list"
    # the JSON pointer of the first list of each key, and whether every one is empty
    python3 - "$tmp/model.json" $keys >"$tmp/paths" <<'PY' || fail "$f: a list the reader knows only empty has elements"
import json, sys
model, keys, first, ok = json.load(open(sys.argv[1])), sys.argv[2:], {}, True
def walk(v, path):
    global ok
    if isinstance(v, dict):
        for k, x in v.items():
            p = path + "/" + k.replace("~", "~0").replace("/", "~1")
            if k in keys:
                ok &= x == []
                first.setdefault(k, p)
            walk(x, p)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s/%d" % (path, i))
walk(model, "")
for k, p in sorted(first.items()):
    print(k, p)
sys.exit(0 if ok else 1)
PY
    while read -r key path; do
        found=$((found + 1))
        printf '[{"op": "add", "path": "%s/-", "value": 0}]' "$path" >"$tmp/add.json"
        if "$rebyte" apply "$tmp/add.json" "$f" -o "$tmp/out.Gbx" 2>"$tmp/err"; then
            fail "$f: an element added to $path was accepted"
        elif ! grep -q "have no known layout" "$tmp/err"; then
            fail "$f: adding to $path fails without saying why: $(cat "$tmp/err")"
        fi
        [ -e "$tmp/out.Gbx" ] && fail "$f: a refused patch left an output file" && rm -f "$tmp/out.Gbx"
    done <"$tmp/paths"
done
[ "$found" -gt 0 ] || fail "no corpus file has one of the lists ($keys)"
echo "empty lists: $found lists checked, $fails failures"
[ "$fails" -eq 0 ]
