#!/bin/sh
# An edit that reaches no unit (patch/apply_kept.c;
# docs/performance.md "An edit that reaches no unit"): apply on the deferred model, its units kept as their bytes, gives the bytes (or the
# refusal) of apply on the expanded model (REBYTE_APPLY_EXPAND=1), for edits it keeps and edits
# that make it expand (a unit, a unit's read, a rule's read, an index where a selector is stated),
# on GROFF and data.win files of the corpus; and on the largest of each it holds less memory. A
# kept apply whose write is taken as not proven (REBYTE_APPLY_EXPAND=retry) runs again expanded:
# the same bytes, the report said once.
. "$(dirname "$0")/../lib.sh"
require_corpus tres
tres=$corpus
require_corpus datawin
datawin=$corpus
command -v /usr/bin/time >/dev/null 2>&1 || { echo "SKIP: no /usr/bin/time"; exit 77; }
G='/chunks/[id=GEN8]'
patch() { name=$1; shift; printf '%s\n' "$@" >"$tmp/$name.json"; }
patch t1 '[{"op": "replace", "path": "/timeStamp", "value": 12345}]'
patch t2 '[{"op": "replace", "path": "/flags", "value": 12}, {"op": "replace", "path": "/reserved2", "value": 7},' \
         ' {"op": "test", "path": "/containerVersion", "value": 10}, {"op": "replace", "path": "/reserved1", "value": 3}]'
patch t3 '[{"op": "replace", "path": "/containerVersion", "value": 10}]'
patch t4 '[{"op": "replace", "path": "/sections/0/type", "value": 2147483648}]'
patch t5 '[{"op": "test", "path": "/timeStamp", "value": 999}, {"op": "replace", "path": "/flags", "value": 1}]'
patch d1 "[{\"op\": \"replace\", \"path\": \"$G/gameId\", \"value\": 7}]"
patch d2 "[{\"op\": \"replace\", \"path\": \"$G/defaultWindowWidth\", \"value\": 640}," \
         " {\"op\": \"replace\", \"path\": \"$G/defaultWindowHeight\", \"value\": 480}," \
         " {\"op\": \"replace\", \"path\": \"$G/timestamp\", \"value\": 1600000000}," \
         " {\"op\": \"replace\", \"path\": \"$G/steamAppId\", \"value\": 5}]"
patch d3 "[{\"op\": \"replace\", \"path\": \"$G/lastTile\", \"value\": 10000001}]"
patch d4 "[{\"op\": \"replace\", \"path\": \"$G/roomOrder/0\", \"value\": 0}]"
patch d5 '[{"op": "replace", "path": "/chunks/0/gameId", "value": 9}]'
patch d6 '[{"op": "replace", "path": "/chunks/[id=OBJT]/objects/0/depth", "value": 3}]'
patch d7 "[{\"op\": \"test\", \"path\": \"$G/gameId\", \"value\": 7}, {\"op\": \"replace\", \"path\": \"$G/gameId\", \"value\": 8}]"

# both ways: the same exit status, and the same bytes when written
both() {
    file=$1 p=$2 tag=$(basename "$1")-$2
    "$rebyte" apply -q --patch "$tmp/$p.json" "$file" -o "$tmp/kept-$tag" 2>"$tmp/err-kept"
    kept=$?
    REBYTE_APPLY_EXPAND=1 "$rebyte" apply -q --patch "$tmp/$p.json" "$file" -o "$tmp/full-$tag" 2>"$tmp/err-full"
    full=$?
    [ "$kept" = "$full" ] || fail "$tag: exit $kept kept, $full expanded: $(cat "$tmp/err-kept" "$tmp/err-full")"
    [ "$kept" = 0 ] && { cmp -s "$tmp/kept-$tag" "$tmp/full-$tag" || fail "$tag: the bytes differ"; }
    rm -f "$tmp/kept-$tag" "$tmp/full-$tag"
    return 0
}
written=0
for f in "$tres"/demo.grf "$tres"/demo.scn "$tres"/SlideTest.scn "$tres"/Error.scn; do
    for p in t1 t2 t3 t4 t5; do both "$f" $p; done
done
for f in "$datawin"/Infinite-Menagerie_data.win "$datawin"/jtool_data.win "$datawin"/space-nugs_data.win \
         "$datawin"/Fall2024MiniJam_data.win "$datawin"/BasicSlowLight_data.win; do
    for p in d1 d2 d3 d4 d5 d6 d7; do both "$f" $p; done
done
# the kept apply holds the units as bytes: its peak is below the expanded apply's
peak() { /usr/bin/time -f %M -o "$tmp/peak" "$@" >/dev/null 2>&1; cat "$tmp/peak"; }
for case in "$tres/demo.grf t1" "$datawin/Infinite-Menagerie_data.win d1"; do
    set -- $case
    k=$(peak "$rebyte" apply -q --patch "$tmp/$2.json" "$1" -o "$tmp/k")
    x=$(REBYTE_APPLY_EXPAND=1 peak "$rebyte" apply -q --patch "$tmp/$2.json" "$1" -o "$tmp/x")
    [ $((k * 10)) -lt $((x * 9)) ] || fail "$(basename "$1") $2: kept apply peaks at $k KB, expanded at $x KB"
done
for case in "$tres/demo.scn t2" "$datawin/jtool_data.win d2"; do
    set -- $case
    REBYTE_APPLY_EXPAND=retry "$rebyte" apply --patch "$tmp/$2.json" "$1" -o "$tmp/retried" >"$tmp/said" 2>&1 ||
        fail "$(basename "$1") $2: the retry failed: $(cat "$tmp/said")"
    REBYTE_APPLY_EXPAND=1 "$rebyte" apply -q --patch "$tmp/$2.json" "$1" -o "$tmp/expanded"
    cmp -s "$tmp/retried" "$tmp/expanded" || fail "$(basename "$1") $2: the retry wrote other bytes"
    [ "$(grep -c "patched and verified" "$tmp/said")" = 1 ] || fail "$(basename "$1") $2: the retry's report: $(cat "$tmp/said")"
done
finish "kept apply (9 files, 12 patches, both ways)"
