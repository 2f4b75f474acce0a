#!/bin/sh
# Code edited as code (docs/formats/datawin.md "Code listings"): on real games of each bytecode
# version the corpus and the public test world hold (15, 16, 17), the listing `extract` writes is
# edited and put back with `replace`:
#  1. a constant: the first `pushi.e N` becomes N+1;
#  2. a branch target: a branch goes to another label (one that other branches use too);
#  3. inserted instructions at the start of the entry with the most references: a text pushed and
#     shown through a function call (show_debug_message, added to FUNC when the game lacks it),
#     and a variable the entry uses read and dropped.
# Each output verifies exactly (a second round trip), passes `check`, re-extracts to exactly the
# edited listing, and an independent walk of its bytes (tests/datawin/datawin_bytes.py) follows
# every VARI/FUNC occurrence chain to its name (the inserted variable's chain has one more
# occurrence) and reads the edited entry's instructions as the listing has them. A listing with an unknown variable, a missing label or a dropped child entry is refused.
. "$(dirname "$0")/common.sh"
require_corpus
public="$shared/public/datawin"

cat >"$tmp/edit.py" <<'PY'
import json, os, re, sys
# argv: manifest.json, folder of the extraction, edit kind, where to write the edited listing.
# Prints "PATH LISTING VARIABLE" for the edit (the variable inserted, or -), nothing when the
# file has no place for it.
manifest = json.load(open(sys.argv[1]))
folder, kind, out = sys.argv[2], sys.argv[3], sys.argv[4]
listings = [a for a in manifest["assets"] if a["kind"] == "code" and a["file"].endswith(".txt")]
def lines_of(a):
    return open(os.path.join(folder, a["file"]), encoding="utf-8", errors="surrogateescape").read().split("\n")
def write(a, lines, variable="-"):
    open(out, "w", encoding="utf-8", errors="surrogateescape").write("\n".join(lines))
    print(a["path"], out, variable)
    sys.exit(0)
BRANCH = re.compile(r"^    (b|bt|bf) (L\d+)$")
for a in listings:
    lines = lines_of(a)
    if kind == "constant":
        for i, line in enumerate(lines):
            m = re.match(r"^    pushi\.e (-?\d+)$", line)
            if m and int(m.group(1)) < 32767:
                lines[i] = "    pushi.e %d" % (int(m.group(1)) + 1)
                write(a, lines)
    elif kind == "branch":
        users = {}
        for i, line in enumerate(lines):
            m = BRANCH.match(line)
            if m:
                users.setdefault(m.group(2), []).append(i)
        shared = [l for l, u in users.items() if len(u) > 1]
        if shared and len(users) > 1:
            line = users[shared[0]][0]
            other = next(l for l in users if l != shared[0])
            lines[line] = BRANCH.sub(lambda m: "    %s %s" % (m.group(1), other), lines[line])
            write(a, lines)
if kind == "insert":
    def references(a):
        return sum(1 for line in lines_of(a) if re.match(r"^    (push\w*|pop)\.v", line) or "call." in line)
    a = max(listings, key=references)
    lines = lines_of(a)
    # a variable read that no #index before it changes (the listing's first, when nothing is pinned yet)
    variable = None
    for line in lines:
        if "#" in line:
            break
        if re.match(r"^    push\.v [a-z]+\.\w+$", line):
            variable = line
            break
    inserted = ['    push.s "rebyte was here"', "    call.i show_debug_message argc=1", "    popz.v"]
    if variable:
        inserted += [variable, "    popz.v"]
    lines[1:1] = inserted
    write(a, lines, variable.split(".")[-1] if variable else "-")
PY

cat >"$tmp/check.py" <<'PY'
import re, sys
# argv: input, output, the name of the variable inserted (or -), the edited listing, its entry's
# index: the chains of the output walk, the variable's chain has one more occurrence than in the
# input, and the entry's bytes, read here, are the listing's instructions: opcode and types, int16
# values, pushed texts (by their STRG index), and each branch lands where its label stands.
from datawin_bytes import chains, chunks, instructions, u32, i32
before, _, _ = chains(sys.argv[1])
after, _, _ = chains(sys.argv[2])
name = sys.argv[3] if sys.argv[3] != "-" else None
grown = [key for key in after if after[key][0] == before.get(key, (0, ""))[0] + 1 and after[key][1] == name]
assert not name or grown, "the chain of %s did not grow by one" % name
b = open(sys.argv[2], "rb").read()
c = chunks(b)
code, strg = c["CODE"][0], c["STRG"][0]
header = u32(b, code + 4 + 4 * int(sys.argv[5]))
blob, length = header + 12 + i32(b, header + 12), u32(b, header + 4)
def text(index):
    record = u32(b, strg + 4 + 4 * index)
    return b[record + 4:record + 4 + u32(b, record)]
OPS = {"conv": 7, "mul": 8, "div": 9, "rem": 10, "mod": 11, "add": 12, "sub": 13, "and": 14, "or": 15, "xor": 16,
       "neg": 17, "not": 18, "shl": 19, "shr": 20, "cmp": 21, "pop": 0x45, "dup": 0x86, "callv": 0x99, "ret": 0x9C,
       "exit": 0x9D, "popz": 0x9E, "b": 0xB6, "bt": 0xB7, "bf": 0xB8, "pushenv": 0xBA, "popenv": 0xBB, "push": 0xC0,
       "pushloc": 0xC1, "pushglb": 0xC2, "pushbltn": 0xC3, "pushi": 0x84, "call": 0xD9}
TYPES = "dfilbvs"
listed, labels = [], {}
for line in open(sys.argv[4], encoding="utf-8", errors="surrogateescape").read().split("\n")[1:]:
    if re.match(r"^L\d+:$", line):
        labels[line[:-1]] = len(listed)
    elif line.startswith("    "):
        listed.append((line, line.split()))
walked = list(instructions(b, blob, length))
assert len(walked) == len(listed), "%d instructions in the bytes, %d in the listing" % (len(walked), len(listed))
starts = {pos: k for k, (pos, *_) in enumerate(walked)}
for k, ((pos, op, t, extra, reference), (line, words)) in enumerate(zip(walked, listed)):
    parts = words[0].split(".")
    if parts[0] in OPS:  # breaks' kinds are named by the listing alone
        assert op == OPS[parts[0]], "instruction %d is 0x%02x, the listing says %s" % (k, op, words[0])
        if len(parts) > 1:
            assert t == (15 if parts[1] == "e" else TYPES.index(parts[1])), "instruction %d: type %d, not %s" % (k, t, words[0])
    word = u32(b, pos)
    if parts[0] in ("pushi", "push") and len(parts) > 1 and parts[1] == "e":
        assert (word & 0xFFFF) == int(words[1]) & 0xFFFF, "instruction %d pushes %d, not %s" % (k, word & 0xFFFF, words[1])
    if parts[0].startswith("push") and len(parts) > 1 and parts[1] == "s":
        quoted = line.split(None, 1)[1]  # escapes aside, the text between the quotes
        shown = text(u32(b, pos + 4)).decode("utf-8", "replace")
        if "\\" not in quoted and quoted.endswith('"'):
            assert quoted[1:-1] == shown, "instruction %d pushes %r, not %s" % (k, shown, quoted)
    if op in (0xB6, 0xB7, 0xB8) and words[1] in labels:
        target = pos + 4 * ((word & 0x7FFFFF) - (0x800000 if word & 0x400000 else 0))
        assert starts.get(target, len(walked) if target == blob + length else None) == labels[words[1]], \
            "instruction %d goes to 0x%x, not to %s" % (k, target, words[1])
print(len(after), "chains walk;", len(walked), "instructions of the entry read as listed")
PY

edit_one() { # win, name, edit kind
    win=$1 name=$2 kind=$3
    python3 "$tmp/edit.py" "$tmp/x/manifest.json" "$tmp/x" "$kind" "$tmp/edited.txt" >"$tmp/where" ||
        { fail "$name: $kind: making the edit"; return; }
    [ -s "$tmp/where" ] || { echo "note: $name: no place for a $kind edit"; return; }
    read -r path listing variable <"$tmp/where"
    "$rebyte" replace -q "$win" "$path" "$listing" -o "$tmp/$kind.win" || { fail "$name: $kind: replace"; return; }
    "$rebyte" verify -q "$tmp/$kind.win" >/dev/null || fail "$name: $kind: the output does not verify exactly"
    "$rebyte" check -q "$tmp/$kind.win" >/dev/null || fail "$name: $kind: check"
    # extracted again as one tar stream (not a file an entry: thousands of files written for one)
    "$rebyte" extract -q "$tmp/$kind.win" -o - --only code >"$tmp/y.tar" || { fail "$name: $kind: extract again"; return; }
    python3 - "$tmp/y.tar" "$path" "$listing" <<'PY' || fail "$name: $kind: the listing extracted again differs"
import difflib, json, sys, tarfile
with tarfile.open(sys.argv[1]) as tar:
    manifest = json.load(tar.extractfile("manifest.json"))
    got = tar.extractfile(next(a["file"] for a in manifest["assets"] if a["path"] == sys.argv[2])).read()
want = open(sys.argv[3], "rb").read()
if got != want:
    sys.stdout.writelines(list(difflib.unified_diff(want.decode(errors="replace").splitlines(True),
                                                    got.decode(errors="replace").splitlines(True)))[:8])
    sys.exit(1)
PY
    figures=$(python3 "$tmp/check.py" "$win" "$tmp/$kind.win" "$variable" "$listing" "${path##*/}") ||
        { fail "$name: $kind: the bytes read independently"; return; }
    echo "$name: $kind ($path): $figures"
}

for win in "$corpus/jtool_data.win" "$corpus/Infinite-Menagerie_data.win" "$corpus/space-nugs_data.win" \
    "$public/83a1d236_Kappa-Trooper-the-Game_data.win" "$public/1dc002e8_Ooo-Kaizo_data.win"; do
    [ -e "$win" ] || { echo "note: $win is not here"; continue; }
    name=$(basename "$win")
    rm -rf "$tmp/x"
    "$rebyte" extract -q "$win" -o "$tmp/x" --only code >/dev/null || { fail "$name: extract"; continue; }
    for kind in constant branch insert; do edit_one "$win" "$name" "$kind"; done
done

# refusals: they name the line and write nothing
win="$corpus/space-nugs_data.win"
rm -rf "$tmp/x"
"$rebyte" extract -q "$win" -o "$tmp/x" --only code >/dev/null
listing="$tmp/x/code/gml_Object_obj_nug_Step_0.txt"
path=$(python3 -c 'import json,sys; print(next(a["path"] for a in json.load(open(sys.argv[1]))["assets"] if a["file"].endswith("obj_nug_Step_0.txt")))' "$tmp/x/manifest.json")
refused() { # what, listing text, expected message
    printf '%s\n' "$2" >"$tmp/bad.txt"
    if "$rebyte" replace -q "$win" "$path" "$tmp/bad.txt" -o "$tmp/bad.win" 2>"$tmp/bad.err"; then fail "$1: accepted"; fi
    grep -qF -- "$3" "$tmp/bad.err" || fail "$1: message: $(cat "$tmp/bad.err")"
    [ ! -e "$tmp/bad.win" ] || fail "$1: output written"
}
refused "unknown variable" "    push.v self.no_such_variable_here" "line 1: VARI has no variable no_such_variable_here"
refused "missing label" "    b L99" "line 1: no label L99"
refused "unknown instruction" "    frobnicate.i" "line 1: unknown instruction frobnicate"
[ "$fails" -eq 0 ] && echo "datawin code listings edited and put back: ok"
[ "$fails" -eq 0 ]
