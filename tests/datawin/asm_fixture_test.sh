#!/bin/sh
# Code listings on a file the project builds (docs/formats/datawin.md "Code listings"): the sample
# game (samples/datawin/sample.json) given a CODE chunk of two entries (a script and a function
# declared inside it), two variables and one function. A listing written by hand, with a loop, a
# string, doubles, an int64, a call of a function FUNC lacks and the child entry placed inside,
# is put into the script with `replace`; then:
#  1. the output verifies exactly and checks clean; its listing extracted again is the one written,
#     and putting that back changes nothing (the same bytes);
#  2. the bytes, walked independently (tests/datawin/datawin_bytes.py): each variable's and
#     function's occurrence chain has the uses the listing has and ends on its name, the child
#     entry starts where .entry put it, the new function is in FUNC, the text is in STRG;
#  3. every other form of the text (raw words, raw branch distances, NaN bits, odd bits) reads and
#     writes back the same;
#  4. listings that cannot be put back are refused, naming the line: an unknown variable, a label
#     no line defines, a child entry left out, an index that is not the name's.
. "$(dirname "$0")/common.sh"

python3 - "$src/samples/datawin/sample.json" "$tmp/fixture.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
exit_i = {"$base64": "AAACnQ=="}  # exit.i (0x9D020000): replaced by the listing below
chunks = [
    {"id": "CODE", "bytecodeFormat": 15, "entries": [
        {"name": "gml_Script_main", "locals": 1, "arguments": 0, "bytecode": exit_i},
        {"name": "gml_Script_inner", "locals": 0, "arguments": 0, "parent": 0, "offset": 0}]},
    {"id": "VARI", "bytecodeFormat": 15, "firstOccurrenceIsOperand": 0, "varCount1": 2, "varCount2": 2,
     "maxLocalVarCount": 1, "variables": [{"name": "score", "instanceType": -1, "varId": 0},
                                          {"name": "lives", "instanceType": -1, "varId": 1}]},
    {"id": "FUNC", "bytecodeFormat": 15, "firstOccurrenceIsOperand": 1, "functions": [{"name": "show_message"}]}]
at = next(i for i, c in enumerate(doc["chunks"]) if c["id"] == "STRG")
doc["chunks"][at:at] = chunks
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
built_fixture "$tmp/fixture.json" fixture || { [ "$fails" -eq 0 ]; exit; }

cat >"$tmp/main.txt" <<'EOF'
; gml_Script_main: GameMaker bytecode, docs/formats/datawin.md "Code listings"
    pushi.e 3
    pop.v.i self.lives
    push.d 0.5
    pop.v.d self.score
    b L2
.entry gml_Script_inner
    push.s "rebyte: \"inner\"\n"
    call.i show_debug_message argc=1
    popz.v
    exit.i
L1:
    push.v self.score
    push.l 9007199254740993
    add.l.v
    pop.v.v self.score
    push.v self.lives
    pushi.e 1
    sub.i.v
    dup.v 0
    pop.v.v self.lives
    pushi.e 0
    cmp.i.v gt
    bt L1
L2:
    push.s "score"
    call.i show_message argc=1
    popz.v
    push.v self.lives
    pushi.e 0
    cmp.i.v gt
    bt L1
    exit.i
EOF
code_path=$("$rebyte" dump "$tmp/fixture.win" | python3 -c 'import json,sys; print("/chunks/%d/entries/0" % [c["id"] for c in json.load(sys.stdin)["chunks"]].index("CODE"))')
if "$rebyte" replace -q "$tmp/fixture.win" "$code_path" "$tmp/main.txt" -o "$tmp/main.win"; then
    "$rebyte" verify -q "$tmp/main.win" >/dev/null || fail "the assembled file does not verify exactly"
    "$rebyte" check -q "$tmp/main.win" >/dev/null || fail "the assembled file does not check clean"
    "$rebyte" extract -q "$tmp/main.win" -o "$tmp/x" --only code >/dev/null || fail "extract"
    cmp -s "$tmp/main.txt" "$tmp/x/code/gml_Script_main.txt" ||
        { fail "the listing extracted again is not the one written"; diff "$tmp/main.txt" "$tmp/x/code/gml_Script_main.txt"; }
    "$rebyte" replace -q "$tmp/main.win" "$code_path" "$tmp/x/code/gml_Script_main.txt" -o "$tmp/again.win" &&
        cmp -s "$tmp/main.win" "$tmp/again.win" || fail "the unchanged listing put back does not give the same bytes"
    python3 - "$tmp/main.win" <<'PY' || fail "the bytes walked independently"
import struct, sys
from datawin_bytes import chains, chunks, u32, i32
path = sys.argv[1]
found, _, code = chains(path)
want = {("variable", 0): (3, "score"), ("variable", 1): (4, "lives"),
        ("function", 0): (1, "show_message"), ("function", 1): (1, "show_debug_message")}
assert found == want, found
b = open(path, "rb").read()
c = chunks(b)
headers = [u32(b, code + 4 + 4 * k) for k in range(u32(b, code))]
main, inner = headers
blob = main + 12 + i32(b, main + 12)
assert u32(b, inner + 4) == u32(b, main + 4) and inner + 12 + i32(b, inner + 12) == blob, "the child shares the bytecode"
assert u32(b, inner + 16) == 36, "the child starts after 5 instructions (at 36), not %d" % u32(b, inner + 16)
strg = c["STRG"][0]
texts = [b[u32(b, strg + 4 + 4 * k) + 4:u32(b, strg + 4 + 4 * k) + 4 + u32(b, u32(b, strg + 4 + 4 * k))] for k in range(u32(b, strg))]
assert b'rebyte: "inner"\n' in texts and b"show_debug_message" in texts
print("chains, child offset and texts as the listing says")
PY
else
    fail "the hand-written listing is refused"
fi

# every form of the text the corpus does not need, each read and written back the same: NaN bits,
# a float, a bool, a function reference, an array element of a numbered instance, a word with bits
# its form does not show (~), an operand on no chain (=), a branch into an operand (+N), with and
# popenv drop, break kinds, an unnamed comparison, a reference's odd high byte
cat >"$tmp/forms.txt" <<'EOF'
; gml_Script_main: GameMaker bytecode, docs/formats/datawin.md "Code listings"
.entry gml_Script_inner
    push.d 0x7FF8000000000001
    push.f 1.5
    push.b 1
    push.i function show_message
    pop.v.v [array]global.score
    push.v 3.lives
    push.i 5 ~0xC0020009
    call.i =0x00000000 argc=0
    b +2
    push.i -7
    pushenv L1
    chkindex.e
    pushref.i function show_message
    break.e -20
    popenv drop
L1:
    cmp.i.v 9
    dup.i 3
    conv.i.v
    call.i [0x05]show_message argc=1
    exit.i
EOF
if "$rebyte" replace -q "$tmp/fixture.win" "$code_path" "$tmp/forms.txt" -o "$tmp/forms.win"; then
    "$rebyte" verify -q "$tmp/forms.win" >/dev/null || fail "forms: the file does not verify exactly"
    rm -rf "$tmp/x"
    "$rebyte" extract -q "$tmp/forms.win" -o "$tmp/x" --only code >/dev/null || fail "forms: extract"
    cmp -s "$tmp/forms.txt" "$tmp/x/code/gml_Script_main.txt" ||
        { fail "forms: the listing extracted again is not the one written"; diff "$tmp/forms.txt" "$tmp/x/code/gml_Script_main.txt"; }
else
    fail "forms: the listing is refused"
fi

refused() { # what, listing text, expected message
    printf '%s\n' "$2" >"$tmp/bad.txt"
    if "$rebyte" replace -q "$tmp/fixture.win" "$code_path" "$tmp/bad.txt" -o "$tmp/bad.win" 2>"$tmp/bad.err"; then
        fail "$1: accepted"
    fi
    grep -qF -- "$3" "$tmp/bad.err" || fail "$1: message: $(cat "$tmp/bad.err")"
    [ ! -e "$tmp/bad.win" ] || fail "$1: output written"
}
refused "an unknown variable" ".entry gml_Script_inner
    push.v self.speed" "line 2: VARI has no variable speed"
refused "a label nowhere" ".entry gml_Script_inner
    bt L7" "line 2: no label L7"
refused "a child entry left out" "    exit.i" "child entry gml_Script_inner (entries/1) runs inside this one"
refused "an index that is not the name's" ".entry gml_Script_inner
    push.v self.score#1" "line 2: variable #1 is not score"
refused "a text that does not close" ".entry gml_Script_inner
    push.s \"open" "line 2: a text without its closing quote"
[ "$fails" -eq 0 ] && echo "datawin code listing on a built fixture: ok"
[ "$fails" -eq 0 ]
