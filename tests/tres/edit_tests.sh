#!/bin/sh
# GROFF edits: renaming and moving instances, giving an instance a name of its own. Each result
# must re-read, keep every section payload but the edited one (checked by groff_check, which
# parses GROFF on its own), have its name table in strcmp order with recounted references,
# and differ from the original (per `rebyte diff`) in exactly the patched values.
# Usage: edit_tests.sh GROFF_CHECK
. "$(dirname "$0")/../lib.sh"
check=$1
samples=${REBYTE_SOURCE:?}/samples/tres

# apply PATCH INPUT OUT: patch, then the invariants every written GROFF file must keep
apply() {
    "$rebyte" apply "$1" "$2" -o "$3" 2>"$tmp/err" || { fail "apply $1: $(cat "$tmp/err")"; return 1; }
    "$check" "$3" >/dev/null || { fail "$3 breaks the GROFF rules after $1"; return 1; }
    "$rebyte" verify -q "$3" >/dev/null || fail "$3 does not verify"
}

# the number of operations in `rebyte diff A B` (its pins aside)
diff_ops() { "$rebyte" diff "$1" "$2" | grep '"op"' | grep -vc '"op": "test"'; }

edits_on() {
    grf=$1 prefix=$2
    apply "$samples/$prefix-move-instance.patch.json" "$grf" "$tmp/moved" || return
    "$check" --same-payloads "$grf" "$tmp/moved" >/dev/null 2>&1 && fail "$prefix: moving changed no payload"
    moved_ops=$(grep -c '"replace"' "$samples/$prefix-move-instance.patch.json")
    [ "$(diff_ops "$grf" "$tmp/moved")" -eq "$moved_ops" ] || fail "$prefix: moving changed more than the position"
    [ "$(cmp -l "$grf" "$tmp/moved" | wc -l)" -le $((4 * moved_ops)) ] || fail "$prefix: moving changed more than 4 bytes per value"
    # one replace of the instance's name text: a new symbol for it, only the region payload changes
    apply "$samples/$prefix-rename-instance.patch.json" "$grf" "$tmp/renamed" || return
    "$check" --same-payloads "$grf" "$tmp/renamed" >/dev/null 2>&1 && fail "$prefix: renaming changed no payload"
    new=$(sed -n 's/.*"replace".*"value": "\([^"]*\)".*/\1/p' "$samples/$prefix-rename-instance.patch.json")
    grep -q "$new" "$tmp/renamed" || fail "$prefix: the new name $new is not in the file"
    "$rebyte" dump "$tmp/renamed" | grep -q "\"name\": \"$new\"" || fail "$prefix: the instance does not show its new name"
    "$rebyte" diff --plain "$grf" "$tmp/renamed" | grep -q "\"value\": \"$new\"" ||
        fail "$prefix: the diff does not show the instance's new name"
}

edits_on "$samples/box.grf" box
# renaming one instance (one replace of its name text) gives it a symbol of its own: the old
# name has no reference left and leaves the table
apply "$samples/box-rename-instance.patch.json" "$samples/box.grf" "$tmp/own" &&
    { ! grep -q 'Box-01' "$tmp/own" || fail "the unreferenced name Box-01 is still in the table"; } &&
    { grep -q 'Crate-01' "$tmp/own" || fail "the new name is missing"; }
"$rebyte" dump "$tmp/own" | grep -q '"name": "Crate-01"' || fail "the renamed instance does not show its new name"
# renaming the symbol renames every use
apply "$samples/box-own-name.patch.json" "$samples/box.grf" "$tmp/everywhere" &&
    { "$rebyte" dump "$tmp/everywhere" | grep -q '"name": "Crate-01"' || fail "the symbol rename did not reach its use"; }

demo=${REBYTE_SHARED:-}/corpus/tres/demo.grf
if [ -f "$demo" ]; then
    edits_on "$demo" demo
else
    echo "note: $demo not found (set REBYTE_SHARED); edits checked on the sample only"
fi
[ "$fails" -eq 0 ] && echo "tres edits: all checks passed"
[ "$fails" -eq 0 ]
