#!/bin/sh
# Bytecode string operands (docs/formats/datawin.md "STRG", "Occurrence chains"): push.s operands
# and the ends of VARI/FUNC occurrence chains hold STRG *indices*; the model holds texts (CODE
# entries' "stringOperands"; a chain's end names its VARI/FUNC entry's name) and writing resolves
# the indices. On every corpus data.win:
#  1. a string inserted at index 0 of STRG shifts every index: in the output bytes every push.s
#     operand and every chain end (walked independently here) names the same text as in the input;
#     the output verifies, and its model is the input's with only that string added;
#  2. the file with an empty patch is byte-exact;
#  3. a string operand renamed to a text that STRG lacks: the text is appended to STRG (STRG is
#     derived from the references), the output verifies and its operand names the new text;
#  4. a string operand naming a copy of a text that STRG does not have (an "occurrence" past its
#     copies) is refused, with a message that names the code entry and the instruction holding it.
. "$(dirname "$0")/common.sh"
require_corpus

echo '[{"op":"add","path":"/chunks/[id=STRG]/strings/0","value":"inserted"}]' >"$tmp/insert.json"
echo '[]' >"$tmp/none.json"
cat >"$tmp/operands.py" <<'PY'
import struct, sys
# An independent walk of the bytecode (>= 15): the texts named by push.s operands and chain ends.
from datawin_bytes import u32, chunks, root_blobs, instructions
def texts(path):
    b = open(path, "rb").read()
    c = chunks(b)
    if b[c["GEN8"][0] + 1] < 15 or c["CODE"][1] == 0:
        return None
    strg = c["STRG"][0]
    def string(index):
        assert index < u32(b, strg), index
        record = u32(b, strg + 4 + 4 * index)
        return b[record + 4:record + 4 + u32(b, record)]
    pushes, operands = [], set()
    for at, length in sorted(root_blobs(b, c).items()):
        for pos, op, t, extra, reference in instructions(b, at, length):
            if op in (0xC0, 0xC1, 0xC2, 0xC3, 0x84) and t == 6:
                pushes.append(string(u32(b, pos + 4)))
            if extra:
                operands.add(pos + 4)
    ends = []
    def chain(count, first):
        p = first if first in operands else first + 4
        for _ in range(count - 1):
            p += u32(b, p) & 0x07FFFFFF
        ends.append(string(u32(b, p) & 0xFFFFFF))
    v, vl = c["VARI"]
    for k in range((vl - 12) // 20):
        _, _, _, count, first = struct.unpack_from("<Iiiii", b, v + 12 + 20 * k)
        if count > 0:
            chain(count, first)
    f = c["FUNC"][0]
    for k in range(u32(b, f)):
        _, count, first = struct.unpack_from("<Iii", b, f + 4 + 12 * k)
        if count > 0:
            chain(count, first)
    return pushes, ends
before, after = texts(sys.argv[1]), texts(sys.argv[2])
assert before is not None and before[1], "no chains found"
assert before[0] == after[0], "a push.s operand names another text"
assert before[1] == after[1], "a chain end names another text"
# the string really moved every index
assert u32(open(sys.argv[2], "rb").read(), chunks(open(sys.argv[2], "rb").read())["STRG"][0]) > 0
print(len(before[0]), "push.s operands,", len(before[1]), "chain ends")
PY
for win in "$corpus"/*.win; do
    name=$(basename "$win")
    "$rebyte" apply -q "$tmp/none.json" "$win" -o "$tmp/same.win" || fail "$name: empty patch"
    cmp -s "$win" "$tmp/same.win" || fail "$name: not byte-exact without edits"
    "$rebyte" apply -q "$tmp/insert.json" "$win" -o "$tmp/out.win" || { fail "$name: insert a string"; continue; }
    "$rebyte" verify -q "$tmp/out.win" >/dev/null || fail "$name: the output does not verify exactly"
    python3 "$tmp/operands.py" "$win" "$tmp/out.win" >"$tmp/figures" || { fail "$name: string operands"; continue; }
    echo "$name: $(cat "$tmp/figures")"
    "$rebyte" dump --blobs=base64 "$win" -o "$tmp/in.json" && "$rebyte" dump --blobs=base64 "$tmp/out.win" -o "$tmp/out.json" ||
        { fail "$name: dump"; continue; }
    python3 - "$tmp/in.json" "$tmp/out.json" <<'PY' || fail "$name: the model changed beyond the inserted string"
import json, sys
before, after = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
next(c for c in before["chunks"] if c["id"] == "STRG")["strings"].insert(0, "inserted")
before.pop("$source", None)
after.pop("$source", None)
for x, y in zip(before["chunks"], after["chunks"]):
    assert x == y, x["id"] + " differs"
assert before == after
PY
    # 3. a string operand renamed to a new text: STRG gets the text, the operand names it
    python3 - "$tmp/in.json" "$tmp/new.json" "$tmp/missing.json" "$tmp/message" <<'PY' || continue
import json, sys
code = next(c for c in json.load(open(sys.argv[1]))["chunks"] if c["id"] == "CODE")
k = next((i for i, e in enumerate(code["entries"]) if e.get("stringOperands")), None)
if k is None:
    sys.exit(1)
entry = code["entries"][k]
operand = entry["stringOperands"][0]
json.dump([{"op": "replace", "path": "/chunks/[id=CODE]/entries/%d/stringOperands/0/string" % k,
            "value": "rebyte: a new string"}], open(sys.argv[2], "w"))
json.dump([{"op": "add", "path": "/chunks/[id=CODE]/entries/%d/stringOperands/0/occurrence" % k, "value": 1}],
          open(sys.argv[3], "w"))
# the push.s instruction is the word before its operand (docs/formats/datawin.md "Bytecode instructions")
open(sys.argv[4], "w").write('CODE entry "%s" (entries/%d), the instruction at byte %d of its bytecode'
                             % (entry["name"], k, operand["at"] - 4))
PY
    if "$rebyte" apply -q "$tmp/new.json" "$win" -o "$tmp/new.win" 2>"$tmp/err"; then
        "$rebyte" verify -q "$tmp/new.win" >/dev/null || fail "$name: the output with a new operand text does not verify"
        "$rebyte" dump "$tmp/new.win" -o "$tmp/new.out.json" || fail "$name: dump of the new operand text"
        python3 - "$tmp/new.json" "$tmp/new.out.json" <<'PY' || fail "$name: the operand does not name the appended text"
import json, sys
op = json.load(open(sys.argv[1]))[0]
doc = json.load(open(sys.argv[2]))
chunks = {c["id"]: c for c in doc["chunks"]}
k = int(op["path"].split("/")[4])
assert chunks["STRG"]["strings"][-1] == op["value"], chunks["STRG"]["strings"][-3:]
assert chunks["CODE"]["entries"][k]["stringOperands"][0]["string"] == op["value"]
PY
    else
        fail "$name: a string operand renamed to a new text: $(cat "$tmp/err")"
    fi
    # 4. a copy of a text that STRG does not have is refused, naming the entry and instruction
    expect_refused "$name: an operand naming a missing copy" "$tmp/missing.json" "$win" "$(cat "$tmp/message")"
done
[ "$fails" -eq 0 ] && echo "datawin bytecode string operands: ok"
[ "$fails" -eq 0 ]
