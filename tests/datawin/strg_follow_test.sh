#!/bin/sh
# A new text for a STRG string reaches the game (docs/formats/datawin.md "STRG" and its cookbook):
# the cookbook's `replace` of /chunks/[id=STRG]/strings/[=old text] makes every reference to that
# string follow, so nothing names the old text any more and the writer does not append it again.
#  1. the sample (samples/datawin/replace-text.patch.json): GEN8's displayName follows, STRG keeps its
#     count, the old text is gone from the file;
#  2. every corpus data.win, with a text its bytecode pushes (push.s): the output verifies; read
#     back by an independent walk of its bytes (tests/datawin/datawin_bytes.py: STRG's table, CODE's
#     blobs, every push.s operand's STRG index), the operands that pushed the old text now push
#     the new one, as many, at the same places; the listing (extract --only code) shows it; STRG
#     has as many strings as before and not the old text; apply(diff(input, output), input) gives
#     the output byte for byte;
#  3. refusals, nothing written: a text that is also a variable's name (the runner looks it up by
#     name), and a new text STRG already has.
. "$(dirname "$0")/common.sh"

# ---- 1. the sample ----
sample=$src/samples/datawin/sample.win
patched_file "$src/samples/datawin/replace-text.patch.json" "$sample" sample-renamed &&
python3 - "$tmp/sample-renamed.json" "$tmp/sample-renamed.win" <<'PY' || fail "sample: the new text did not reach GEN8"
import json, sys
chunks = {c["id"]: c for c in json.load(open(sys.argv[1]))["chunks"]}
assert chunks["GEN8"]["displayName"] == "rebyte sample game (renamed)", chunks["GEN8"]["displayName"]
assert chunks["STRG"]["strings"] == ["sample", "Default", "rebyte sample game (renamed)"], chunks["STRG"]["strings"]
assert b"rebyte sample game\0" not in open(sys.argv[2], "rb").read(), "the old text is still in the file"
PY

# ---- 2. the corpus: a text the bytecode pushes ----
# push.s texts of a file, by its bytes: [(blob address, offset in the blob, text)]
cat >"$tmp/pushed.py" <<'PY'
import sys
from datawin_bytes import chunks, instructions, root_blobs, u32
def pushed(path):
    b = open(path, "rb").read()
    c = chunks(b)
    strg = c["STRG"][0]
    texts = []
    for k in range(u32(b, strg)):
        at = u32(b, strg + 4 + 4 * k)
        texts.append(b[at + 4:at + 4 + u32(b, at)].decode("utf-8", "replace"))
    found = []
    for at, length in sorted(root_blobs(b, c).items()):
        for pos, op, t, extra, reference in instructions(b, at, length):
            if op == 0xC0 and t == 6:  # push.s: the operand is a STRG index
                found.append((at, pos - at, texts[u32(b, pos + 4)]))
    return texts, found
PY
tried=0
for win in "$corpus"/*.win; do
    [ -e "$win" ] || continue
    name=$(basename "$win")
    "$rebyte" dump "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    # the first pushed text that is no variable's, function's or code entry's name
    old=$(python3 - "$tmp/in.json" <<'PY'
import json, sys
chunks = {c["id"]: c for c in json.load(open(sys.argv[1]))["chunks"]}
names = {v.get("name") for c in ("VARI", "FUNC") for v in chunks.get(c, {}).get({"VARI": "variables", "FUNC": "functions"}[c], [])}
names |= {e.get("name") for e in chunks.get("CODE", {}).get("entries", [])}
for e in chunks.get("CODE", {}).get("entries", []):
    for o in e.get("stringOperands", []):
        if o["string"] not in names and o["string"].isprintable() and '"' not in o["string"]:
            print(o["string"]); sys.exit(0)
PY
)
    [ -n "$old" ] || { echo "note: $name: its bytecode pushes no text"; continue; }
    tried=$((tried + 1))
    new="$old (edited by rebyte)"
    python3 -c 'import json,sys; json.dump([{"op": "replace", "path": "/chunks/[id=STRG]/strings/[=%s]" % sys.argv[1].replace("~", "~0").replace("/", "~1").replace("]", "~]"), "value": sys.argv[2]}], open(sys.argv[3], "w"))' "$old" "$new" "$tmp/text.json"
    patched_file "$tmp/text.json" "$win" edited || continue
    python3 - "$win" "$tmp/edited.win" "$old" "$new" "$tmp/pushed.py" <<'PY' || fail "$name: the bytecode does not push the new text where it pushed \"$old\""
import sys
exec(open(sys.argv[5]).read())
before_texts, before = pushed(sys.argv[1])
after_texts, after = pushed(sys.argv[2])
old, new = sys.argv[3], sys.argv[4]
was = [(i, text) for i, (_, _, text) in enumerate(before)]
assert len(after) == len(before), "the number of push.s changed"
moved = [i for i, text in was if text == old]
assert moved, "the input pushes no \"%s\"" % old
for i, (_, _, text) in enumerate(after):
    want = new if before[i][2] == old else before[i][2]
    assert text == want, "push.s %d pushes \"%s\", not \"%s\"" % (i, text, want)
assert len(after_texts) == len(before_texts), "STRG has %d strings, not %d" % (len(after_texts), len(before_texts))
assert old not in after_texts, "STRG still has the old text (appended again)"
print("%s: %d push.s of \"%s\" now push \"%s\"" % (sys.argv[1].split("/")[-1], len(moved), old, new))
PY
    # diff is apply's inverse, and the references follow the string there too: one replace
    "$rebyte" diff "$win" "$tmp/edited.win" >"$tmp/diff.json" # exit 1: they differ
    python3 -c 'import json,sys; ops=[o for o in json.load(open(sys.argv[1]))["operations"] if o["op"] != "test"]; sys.exit(len(ops) != 1 or "/strings/" not in ops[0]["path"])' "$tmp/diff.json" ||
        fail "$name: the diff of one string edit is not one replace of the string: $(head -c 600 "$tmp/diff.json")"
    "$rebyte" apply -q "$tmp/diff.json" "$win" -o "$tmp/again.win" &&
        cmp -s "$tmp/again.win" "$tmp/edited.win" || fail "$name: apply(diff(input, edited), input) is not the edited file"
    rm -rf "$tmp/code"
    "$rebyte" extract "$tmp/edited.win" -o "$tmp/code" --only code -q || fail "$name: extract the listings"
    grep -rqF "push.s \"$new\"" "$tmp/code" || fail "$name: no listing shows push.s \"$new\""
    ! grep -rqF "push.s \"$old\"" "$tmp/code" || fail "$name: a listing still pushes \"$old\""

    # ---- 3. refusals ----
    var=$(python3 -c 'import json,sys; c={c["id"]: c for c in json.load(open(sys.argv[1]))["chunks"]}; v=c.get("VARI",{}).get("variables",[]); print(v[0]["name"] if v else "")' "$tmp/in.json")
    if [ -n "$var" ]; then
        printf '[{"op":"replace","path":"/chunks/[id=STRG]/strings/[=%s]","value":"%s_renamed"}]' "$var" "$var" >"$tmp/var.json"
        expect_refused "$name: a variable's name" "$tmp/var.json" "$win" "/variables/"
    fi
    printf '[{"op":"replace","path":"/chunks/[id=STRG]/strings/[=%s]","value":"%s"}]' "$old" "$var" >"$tmp/twice.json"
    [ -n "$var" ] && expect_refused "$name: a text STRG has" "$tmp/twice.json" "$win" "STRG already has"
done
[ -d "$corpus" ] || echo "note: no data.win corpus in $corpus: the sample only"
echo "strg_follow: $tried corpus files edited, $fails failures"
[ "$fails" -eq 0 ]
