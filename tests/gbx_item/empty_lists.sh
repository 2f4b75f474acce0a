#!/bin/sh
# Lists the GBX reader knows only empty (crystal links, visual morphs, skeleton joint expressions,
# TMUnlimiter embedded blocks; docs/formats/gbx_item.md "What stays opaque, and why"): in the model of every
# corpus file that has one they are empty lists, never a count field, and a patch that adds an
# element to one is refused with an error naming the list, writing no output file.
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
keys='crystalLinks morphs jointExpressions embeddedBlocks'
found=0
# every corpus file dumped once, and the dumps read by one interpreter (not one a file)
mkdir "$tmp/dumps"
for f in "$corpus"/*.Gbx; do
    "$rebyte" dump "$f" >"$tmp/dumps/$(basename "$f").json" 2>/dev/null || rm -f "$tmp/dumps/$(basename "$f").json"
done
# shellcheck disable=SC2046
grep -l '"crystalLinkCount"\|"morphCount"\|"jointExprCount"\|"embeddedBlockCount"' "$tmp"/dumps/*.json |
    while read -r d; do echo "FAIL $(basename "$d" .json): a count field where the model has an empty list"; done >"$tmp/counts"
[ -s "$tmp/counts" ] && cat "$tmp/counts" && fails=$((fails + $(wc -l <"$tmp/counts")))
# the JSON pointer of the first list of each key in each file, and whether every one is empty
python3 - "$tmp/dumps" $keys >"$tmp/paths" <<'PY' || fail "the dumps could not be read"
import json, os, sys
folder, keys = sys.argv[1], sys.argv[2:]
for name in sorted(os.listdir(folder)):
    model, first, ok = json.load(open(os.path.join(folder, name))), {}, True
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
    if not ok:
        print("nonempty", name[:-len(".json")], "-")
    for k, p in sorted(first.items()):
        print("list", name[:-len(".json")], k, p)
PY
while read -r kind name key path; do
    f=$corpus/$name
    [ "$kind" = nonempty ] && { fail "$f: a list the reader knows only empty has elements"; continue; }
    found=$((found + 1))
    printf '[{"op": "add", "path": "%s/-", "value": 0}]' "$path" >"$tmp/add.json"
    if "$rebyte" apply "$tmp/add.json" "$f" -o "$tmp/out.Gbx" 2>"$tmp/err"; then
        fail "$f: an element added to $path was accepted"
    elif ! grep -q "have no known layout" "$tmp/err"; then
        fail "$f: adding to $path fails without saying why: $(cat "$tmp/err")"
    fi
    [ -e "$tmp/out.Gbx" ] && fail "$f: a refused patch left an output file" && rm -f "$tmp/out.Gbx"
done <"$tmp/paths"
[ "$found" -gt 0 ] || fail "no corpus file has one of the lists ($keys)"
echo "empty lists: $found lists checked, $fails failures"
[ "$fails" -eq 0 ]
