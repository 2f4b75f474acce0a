#!/bin/sh
# Bytecode that changes length (docs/formats/datawin.md "Occurrence chains"): VARI/FUNC occurrence
# chains, counts and first addresses are recomputed on write from the CODE entries' variable and
# function references. On every corpus data.win, in the root code entry with the most references:
#  1. a no-effect pair `pushi.e 0; popz.i` is inserted at the start (8 bytes): the entry's string
#     operands and references, and its child entries' offsets, move by 8;
#  2. `pushi.e 0; pop.v.i self.V` is inserted at the start (12 bytes), V a variable the entry already
#     uses: V's chain gains an occurrence, which becomes its first.
# Each output verifies exactly (a second round trip), re-reads as the edited model, and an independent
# walk of its bytes follows every VARI/FUNC chain from its first address through the deltas over
# variable/function operands to an end naming the entity's name, with the expected count and texts.
#  3. a reference that is not on a variable or function operand is refused (nothing written).
. "$(dirname "$0")/common.sh"
require_corpus

cat >"$tmp/edit.py" <<'PY'
import base64, json, struct, sys
# Makes the patches: argv = model.json, output directory.
doc = json.load(open(sys.argv[1]))
out = sys.argv[2]
code = next(c for c in doc["chunks"] if c["id"] == "CODE")
vari = next(c for c in doc["chunks"] if c["id"] == "VARI")
entries = code.get("entries") or []
REFERENCE_KEYS = ("variableReferences", "functionReferences")
def reference_count(e):
    return sum(len(e.get(key, [])) for key in REFERENCE_KEYS)
k = max(range(len(entries)), key=lambda i: reference_count(entries[i]), default=None)
if k is None or not reference_count(entries[k]):
    sys.exit(1)
entry = entries[k]
base = "/chunks/[id=CODE]/entries/%d" % k
PUSHI_0 = 0x840F0000          # pushi.e 0 (0x84, type int16, immediate in the low 16 bits)
POPZ_I = 0x9E020000           # popz.i
POP_V_I_SELF = 0x4525FFFF     # pop.v.i, instance -1 (self): a variable operand follows
NORMAL_REFERENCE = 0xA0000000  # reference type "normal" in the high bits

def grown(prefix_words, new_references):
    blob = base64.b64decode(entry["bytecode"]["$base64"])
    prefix = b"".join(struct.pack("<I", w) for w in prefix_words)
    shift = len(prefix)
    ops = [{"op": "replace", "path": base + "/bytecode", "value": {"$base64": base64.b64encode(prefix + blob).decode()}}]
    for key in ("stringOperands",) + REFERENCE_KEYS:
        items = [dict(x, at=x["at"] + shift) for x in entry.get(key, [])]
        if key == "variableReferences":
            items = new_references + items
        if items:
            ops.append({"op": "replace", "path": base + "/" + key, "value": items})
    for i, e in enumerate(entries):
        if e.get("parent") == k:
            ops.append({"op": "replace", "path": "/chunks/[id=CODE]/entries/%d/offset" % i, "value": e["offset"] + shift})
    return ops

json.dump(grown([PUSHI_0, POPZ_I], []), open(out + "/pair.json", "w"))
# a self variable the entry already names (instance type -1), or any variable it names
named = [r["variable"] for r in entry.get("variableReferences", [])]
if named:
    self_vars = [v for v in named if vari["variables"][v].get("instanceType") == -1] or named
    v = self_vars[0]
    json.dump(grown([PUSHI_0, POP_V_I_SELF, NORMAL_REFERENCE], [{"at": 8, "variable": v}]),
              open(out + "/assign.json", "w"))
    open(out + "/assigned", "w").write(str(v))
some = next(key for key in REFERENCE_KEYS if entry.get(key))
json.dump([{"op": "replace", "path": base + "/%s/0/at" % some, "value": entry[some][0]["at"] + 2}],
          open(out + "/bad.json", "w"))
PY


cat >"$tmp/check.py" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from datawin_bytes import chains
# argv: tmp dir, input.win, output.win, input model, patch, output model, [assigned variable]
before, firsts_before, _ = chains(sys.argv[2])
after, firsts_after, _ = chains(sys.argv[3])
assigned = int(sys.argv[7]) if len(sys.argv) > 7 else None
expected = dict(before)
if assigned is not None:
    count, name = expected[("variable", assigned)]
    expected[("variable", assigned)] = (count + 1, name)
assert after == expected, "chains differ: %s" % sorted(set(after.items()) ^ set(expected.items()))[:4]
if assigned is not None:
    # the new occurrence comes first unless an earlier root entry already names the variable
    assert firsts_after[("variable", assigned)] <= firsts_before[("variable", assigned)] + 12
# the output's model is the input's with the patch applied
model, patch, out = json.load(open(sys.argv[4])), json.load(open(sys.argv[5])), json.load(open(sys.argv[6]))
code = next(c for c in model["chunks"] if c["id"] == "CODE")
for op in patch:
    parts = op["path"].split("/")[3:]
    target = code
    for p in parts[:-1]:
        target = target[int(p)] if isinstance(target, list) else target[p]
    last = parts[-1]
    target[int(last) if isinstance(target, list) else last] = op["value"]
model.pop("$source", None)
out.pop("$source", None)
for x, y in zip(model["chunks"], out["chunks"]):
    assert x == y, x["id"] + " differs from the patched model"
assert model == out
print(len(after), "chains")
PY

for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" dump --blobs=base64 "$win" -o "$tmp/in.json" || { fail "$name: dump"; continue; }
    rm -f "$tmp/assign.json" "$tmp/assigned"
    python3 "$tmp/edit.py" "$tmp/in.json" "$tmp" || { fail "$name: no code entry with references"; continue; }
    for edit in pair assign; do
        [ -e "$tmp/$edit.json" ] || { echo "note: $name: no variable reference to add ($edit)"; continue; }
        "$rebyte" apply -q "$tmp/$edit.json" "$win" -o "$tmp/$edit.win" || { fail "$name: apply $edit"; continue; }
        "$rebyte" verify -q "$tmp/$edit.win" >/dev/null || fail "$name: $edit: the output does not verify exactly"
        "$rebyte" dump --blobs=base64 "$tmp/$edit.win" -o "$tmp/$edit.out.json" || { fail "$name: dump $edit"; continue; }
        set -- "$tmp" "$win" "$tmp/$edit.win" "$tmp/in.json" "$tmp/$edit.json" "$tmp/$edit.out.json"
        [ "$edit" = assign ] && set -- "$@" "$(cat "$tmp/assigned")"
        figures=$(python3 "$tmp/check.py" "$@") || { fail "$name: $edit: chains or model"; continue; }
        echo "$name: $edit: $figures"
    done
    # 3. a reference off its operand is refused
    expect_refused "$name: a reference off an operand" "$tmp/bad.json" "$win" "is not a variable or function operand"
done
[ "$fails" -eq 0 ] && echo "datawin bytecode that changes length: ok"
[ "$fails" -eq 0 ]
