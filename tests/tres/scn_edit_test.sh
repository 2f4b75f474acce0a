#!/bin/sh
# Typed SCN class blocks and the GRF value table, edited: each patch must give a file that
# re-reads, verifies, shows the new value where it was put and differs from the original in
# exactly that value (per `rebyte diff`, and in at most the bytes of that value). A block whose
# bytes no class takes is kept as bytes, with a note, and still written back exactly.
# Usage: scn_edit_test.sh GROFF_CHECK
. "$(dirname "$0")/../lib.sh"
check=$1
samples=${REBYTE_SOURCE:?}/samples/tres

# edit NAME INPUT OUT PATH VALUE MAX_BYTES: one replace, then every check
edit() {
    name=$1 in=$2 out=$3 path=$4 value=$5 max=$6
    printf '[{"op": "replace", "path": "%s", "value": %s}]\n' "$path" "$value" >"$tmp/$name.patch.json"
    "$rebyte" apply "$tmp/$name.patch.json" "$in" -o "$out" 2>"$tmp/err" || { fail "$name: apply: $(cat "$tmp/err")"; return 1; }
    "$check" "$out" >/dev/null || fail "$name: the result breaks the GROFF rules"
    "$rebyte" verify -q "$out" >/dev/null || fail "$name: the result does not verify"
    "$rebyte" verify -q --reencode "$out" >/dev/null || fail "$name: the result does not verify re-encoded"
    ops=$("$rebyte" diff --plain "$in" "$out" | grep -c '"op"')
    [ "$ops" -eq 1 ] || fail "$name: the diff has $ops operations, not 1"
    "$rebyte" diff "$in" "$out" | grep -q "\"path\": \"[^\"]*\"" || fail "$name: no path in the diff"
    changed=$(cmp -l "$in" "$out" 2>/dev/null | wc -l)
    [ "$changed" -le "$max" ] || fail "$name: $changed bytes changed (at most $max expected)"
    "$rebyte" dump "$out" >"$tmp/$name.json" || fail "$name: the result does not dump"
}

# --- the sample scene: one block of several classes, made by `rebyte build` ---
scn=$samples/classes.scn
gun=$(python3 -c 'import zlib; print("%X" % zlib.crc32(b"Pistol-01"))') # the block name of Pistol-01
edit move-gun "$scn" "$tmp/moved.scn" "/sections/[name=$gun]/gun/position/x" 7.5 4 &&
    { grep -q '"x": 7.5' "$tmp/move-gun.json" || fail "move-gun: the new position is not in the re-read model"; }
edit ammo "$scn" "$tmp/ammo.scn" "/sections/[name=$gun]/gun/ammo" 3 1
edit fired "$scn" "$tmp/fired.scn" "/sections/5/trigger/start/fired" false 1 &&
    { python3 - "$tmp/fired.json" <<'EOF' || fail "fired: the start trigger did not keep its class with fired = false"
import json, sys
t = json.load(open(sys.argv[1]))["sections"][5]["trigger"]
sys.exit(0 if t["start"]["fired"] is False and "location" not in t else 1)
EOF
    }

# a model another shape also fits (one action word, no class part: read back as a start
# trigger) is refused by apply, which compares the re-read model
printf '[{"op": "remove", "path": "/sections/5/trigger/start"}, {"op": "add", "path": "/sections/5/trigger/actionStates", "value": ["0x00000001"]}]\n' >"$tmp/amb.patch.json"
if "$rebyte" apply "$tmp/amb.patch.json" "$scn" -o "$tmp/amb.scn" 2>"$tmp/err"; then
    fail "an ambiguous trigger shape was written"
else
    grep -q "differs from the patched model" "$tmp/err" || fail "ambiguous shape: the error does not say why: $(cat "$tmp/err")"
fi

# a block no class takes stays bytes, written back exactly: a start trigger whose sequenceActions
# bool holds 7 and whose first word is too large to count a sequence trigger's order
python3 - "$scn" "$tmp/odd.scn" <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at = 48 + 32 * 5  # directory entry of section 5, the start trigger
offset, size = struct.unpack_from("<II", data, at + 8)
assert size == 32
struct.pack_into("<I", data, offset + 16, 7)
struct.pack_into("<I", data, offset, 0x7FFFFFFF)
open(sys.argv[2], "wb").write(data)
EOF
"$rebyte" verify "$tmp/odd.scn" >"$tmp/odd.txt" 2>&1 || fail "odd block: verify failed: $(cat "$tmp/odd.txt")"
grep -q "kept opaque" "$tmp/odd.txt" || fail "odd block: no note says the block was kept opaque"
"$rebyte" dump "$tmp/odd.scn" | python3 -c '
import json, sys
s = json.load(sys.stdin)["sections"][5]
sys.exit(0 if "data" in s and "trigger" not in s else 1)' || fail "odd block: not kept as data"
# a truncated physics system (no zero handle at the end) is refused as a class, not crashed on
python3 - "$scn" "$tmp/cut.scn" <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at = 48 + 32 * 7  # the physics system
offset, size = struct.unpack_from("<II", data, at + 8)
struct.pack_into("<I", data, offset + size - 4, 0x12345678)
open(sys.argv[2], "wb").write(data)
EOF
"$rebyte" verify "$tmp/cut.scn" >"$tmp/cut.txt" 2>&1 || fail "physics without end: verify failed"
grep -q "zero handle" "$tmp/cut.txt" || fail "physics without end: the note does not say why"

# --- the sample level's value table: a float, a string (everything after it moves), a name ---
grf=$samples/values.grf
vt="/sections/[name=.valuetable]/valueTable/values"
edit mass "$grf" "$tmp/mass.grf" "$vt/1/float" 3.5 4 &&
    { grep -q '"float": 3.5' "$tmp/mass.json" || fail "mass: the new value is not in the re-read model"; }
edit class "$grf" "$tmp/class.grf" "$vt/0/string" '"CPhysicsObject"' 1000 &&
    { grep -q '"string": "CPhysicsObject"' "$tmp/class.json" || fail "class: the new text is not in the re-read model"; }
edit rename-value "$grf" "$tmp/rename.grf" "$vt/3/name" '"Mass"' 4 &&
    { python3 - "$tmp/rename-value.json" <<'EOF' || fail "rename-value: the value does not carry its new name"
import json, sys
sections = json.load(open(sys.argv[1]))["sections"]
values = [s for s in sections if "valueTable" in s][0]["valueTable"]["values"]
sys.exit(0 if values[3]["name"] == "Mass" and values[3]["int"] == 0 and values[1]["name"] == "Mass" else 1)
EOF
    }

# --- a scene block renamed by the instance's name: the block takes the name's hash ---
renamed=$(python3 -c 'import zlib; print("%X" % zlib.crc32(b"Pistol-02"))')
# (not `edit`: diff matches blocks by name, so a rename shows as a block removed and one added)
printf '[{"op": "replace", "path": "/sections/[name=%s]/name", "value": "Pistol-02"}]\n' "$gun" >"$tmp/rename.patch.json"
"$rebyte" apply "$tmp/rename.patch.json" "$scn" -o "$tmp/renamed.scn" 2>"$tmp/err" || fail "rename-block: apply: $(cat "$tmp/err")"
"$check" "$tmp/renamed.scn" >/dev/null || fail "rename-block: the result breaks the GROFF rules"
"$rebyte" verify -q --reencode "$tmp/renamed.scn" >/dev/null || fail "rename-block: the result does not verify"
"$rebyte" dump "$tmp/renamed.scn" >"$tmp/rename-block.json" &&
    { python3 - "$tmp/rename-block.json" "$renamed" <<'EOF' || fail "rename-block: the block is not named by the hash of Pistol-02, or lost its class"
import json, sys
sections = json.load(open(sys.argv[1]))["sections"]
sys.exit(0 if any(s["name"] == sys.argv[2] and "gun" in s for s in sections) else 1)
EOF
    }
"$rebyte" check "$tmp/renamed.scn" >/dev/null || fail "rename-block: check is not clean"
# a block named by a text that is no hash (built from JSON) is never found by the game: check says so
"$rebyte" dump --blobs=base64 "$scn" | sed "s/\"$gun\"/\"Pistol-02\"/g" >"$tmp/unhashed.json"
if "$rebyte" build "$tmp/unhashed.json" -o "$tmp/unhashed.scn" 2>"$tmp/err"; then
    "$rebyte" check "$tmp/unhashed.scn" >"$tmp/check.out" 2>&1 && fail "a block named Pistol-02 passes check"
    grep -q "scene-block-names-hashed" "$tmp/check.out" || fail "check does not name the rule: $(cat "$tmp/check.out")"
else
    fail "the unhashed scene does not build: $(cat "$tmp/err")"
fi

# --- the corpus: an animal's saved position in demo.scn, values in demo.grf's value table ---
corpus=${REBYTE_SHARED:-}/corpus/tres
if [ -f "$corpus/demo.scn" ] && [ -f "$corpus/demo.grf" ]; then
    edit move-animal "$corpus/demo.scn" "$tmp/animal.scn" "/sections/[name=83E0DF4E]/animal/position/x" 700.5 4 &&
        { grep -q '"x": 700.5' "$tmp/move-animal.json" || fail "move-animal: the new position is not in the re-read model"; }
    edit fear "$corpus/demo.scn" "$tmp/fear.scn" "/sections/[name=83E0DF4E]/animal/brain/emotions/fear" 0.75 4
    vt="/sections/[name=.valuetable]/valueTable/values"
    edit value-int "$corpus/demo.grf" "$tmp/int.grf" "$vt/1/int" 5 1 &&
        { grep -q '"int": 5' "$tmp/value-int.json" || fail "value-int: the new value is not in the re-read model"; }
    # a longer string moves everything after it: only the value differs in the model
    edit value-string "$corpus/demo.grf" "$tmp/string.grf" "$vt/5/string" '"MUSIC - RAPTOR CHASE LONGER"' 400000 &&
        { grep -q '"string": "MUSIC - RAPTOR CHASE LONGER"' "$tmp/value-string.json" ||
            fail "value-string: the new text is not in the re-read model"; }
    # a value's name is a text of the table's symbols; its id follows
    edit value-name "$corpus/demo.grf" "$tmp/name.grf" "$vt/1/name" '"FireCount"' 4
    printf '[{"op": "replace", "path": "%s/1/name", "value": "NoSuchName"}]\n' "$vt" >"$tmp/bad.patch.json"
    if "$rebyte" apply "$tmp/bad.patch.json" "$corpus/demo.grf" -o "$tmp/bad.grf" 2>"$tmp/err"; then
        fail "a name the value table does not have was accepted"
    else
        grep -q "not one symbol" "$tmp/err" || fail "the error for an unknown name does not say why: $(cat "$tmp/err")"
    fi
else
    echo "note: $corpus not found (set REBYTE_SHARED); edits checked on the sample only"
fi
[ "$fails" -eq 0 ] && echo "tres scn and value-table edits: all checks passed"
[ "$fails" -eq 0 ]
