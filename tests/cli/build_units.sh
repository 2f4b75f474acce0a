#!/bin/sh
# `rebyte build` defers units (docs/performance.md "Build within 3x"): a
# body chunk or a long list is written as soon as it is built from its JSON and kept as those
# bytes. An edit inside such a unit must give what `apply` gives for the same edit, and a bad
# value deep in a list whose first elements were already written and let go of must still be
# named by its index and field. The sample map (samples/gbx) has whole-chunk units and a short
# block list; the largest corpus map (when the corpus is there) a list of thousands of blocks.
. "$(dirname "$0")/../lib.sh"
require_python

# build(dump(F) edited by OPS) and apply(OPS, F) give the same bytes; OPS is a JSON Patch whose
# paths are pointers into the dump.
same_as_apply() { # FILE OPS-JSON WHAT
    "$rebyte" dump "$1" -o "$tmp/d.json" || { fail "$3: dump"; return; }
    printf '%s\n' "$2" >"$tmp/p.json"
    python3 - "$tmp/d.json" "$tmp/p.json" "$tmp/e.json" <<'PY' || { fail "$3: editing the dump"; return; }
import json, sys
doc = json.load(open(sys.argv[1]))
for op in json.load(open(sys.argv[2])):
    *parents, last = op["path"].split("/")[1:]
    node = doc
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    node[int(last) if isinstance(node, list) else last] = op["value"]
json.dump(doc, open(sys.argv[3], "w"), indent=2)
PY
    "$rebyte" build "$tmp/e.json" -o "$tmp/built" || { fail "$3: build"; return; }
    "$rebyte" apply "$tmp/p.json" "$1" -o "$tmp/applied" || { fail "$3: apply"; return; }
    cmp -s "$tmp/built" "$tmp/applied" || fail "$3: build and apply differ: $(cmp "$tmp/built" "$tmp/applied" | head -1)"
    cmp -s "$tmp/built" "$1" && fail "$3: the edit changed nothing"
}

sample="$src/samples/gbx/sample.Map.Gbx"
same_as_apply "$sample" '[{"op": "replace", "path": "/body/chunks/7/comments", "value": "edited in a unit"},
  {"op": "replace", "path": "/body/chunks/2/blocks/1/direction", "value": 2}]' "sample map: comments and a block"
"$rebyte" dump "$tmp/built" | grep -q '"edited in a unit"' || fail "sample map: the built file lacks the edit"

# `build_units.sh corpus` (ctest cli_build_units_corpus, label long): the largest corpus map too
corpus="$shared/corpus/gbx"
big="$corpus/8c0fbe56_Summer_2021_-_25.Map.Gbx"
if [ "${1:-}" = corpus ] && [ -f "$big" ]; then
    same_as_apply "$big" '[{"op": "replace", "path": "/body/chunks/4/blocks/3000/direction", "value": 3}]' \
        "Summer_2021_-_25: block 3000 (written and let go of before the list ends)"
    # a bad value past the first elements let go of: named by its index and field
    python3 - "$tmp/d.json" "$tmp/bad.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["body"]["chunks"][4]["blocks"][3000]["direction"] = "north"
json.dump(doc, open(sys.argv[2], "w"), indent=2)
PY
    if "$rebyte" build "$tmp/bad.json" -o "$tmp/bad" 2>"$tmp/err"; then
        fail "a bad block direction was built"
    fi
    grep -q '/blocks/3000/direction: "north" is not' "$tmp/err" || fail "the error does not name blocks/3000/direction: $(cat "$tmp/err")"
    [ -e "$tmp/bad" ] && fail "a failed build left an output file"
    # a JSON syntax error there: line:column and byte
    python3 - "$tmp/d.json" "$tmp/syntax.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
at = text.index('"DecoWallBasePillar"', len(text) // 3)
open(sys.argv[2], "w").write(text[:at] + "nul" + text[at:])
PY
    "$rebyte" build "$tmp/syntax.json" -o "$tmp/bad" 2>"$tmp/err" && fail "a syntax error was built"
    grep -q 'blocks: not JSON: [0-9]*:[0-9]*: .*(byte [0-9]*)' "$tmp/err" || fail "the syntax error has no line, column and byte: $(cat "$tmp/err")"
elif [ "${1:-}" = corpus ]; then
    echo "SKIP: no corpus map at $big"; exit 77
fi
finish "build's units against apply"
