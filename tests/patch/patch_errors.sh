#!/bin/sh
# A patch that cannot be applied says why (naming the JSON pointer), exits non-zero and writes
# nothing: a wrong type, a value out of range, a missing path, a failing test, a change that would
# leave a derived value inconsistent, a field the version does not have.
set -u
rebyte=${REBYTE:?}
src=${REBYTE_SOURCE:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
sample=$src/samples/gbx/sample.Map.Gbx
B='/body/chunks/[id=0x0304301F]'
M='/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x0305B004]'
expect_refusal() { # NAME PATCH EXPECTED-TEXT
    printf '%s' "$2" > "$tmp/p.json"
    "$rebyte" apply "$tmp/p.json" "$sample" -o "$tmp/out.Gbx" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ]; then echo "FAIL $1: accepted"; fails=$((fails + 1))
    elif ! grep -q -- "$3" "$tmp/err"; then echo "FAIL $1: message lacks \"$3\": $(cat "$tmp/err")"; fails=$((fails + 1))
    elif [ -e "$tmp/out.Gbx" ]; then echo "FAIL $1: output written"; fails=$((fails + 1))
    else echo "ok   $1: $(head -c 200 "$tmp/err")"; fi
    rm -f "$tmp/out.Gbx"
}
expect_refusal "wrong type" "[{\"op\":\"replace\",\"path\":\"$B/mapName\",\"value\":5}]" "mapName: expected a string"
expect_refusal "out of range" "[{\"op\":\"replace\",\"path\":\"$M/authorTime\",\"value\":2147483648}]" "out of range for i32"
expect_refusal "u8 out of range" "[{\"op\":\"replace\",\"path\":\"$B/blocks/0/direction\",\"value\":300}]" "out of range for u8"
expect_refusal "missing path" "[{\"op\":\"replace\",\"path\":\"/body/chunks/99/mapName\",\"value\":\"x\"}]" "operation 0: /body/chunks/99/mapName: \"99\" is not an element of a list of 11"
expect_refusal "failing test" "[{\"op\":\"test\",\"path\":\"$B/mapName\",\"value\":\"not this name\"}]" "test failed"
expect_refusal "derived value" "[{\"op\":\"remove\",\"path\":\"/body/chunks/[id=0x03043040]/snappedOnIndexes/0\"}]" "game rule items-snapping at /body/chunks/\\[id=0x03043040\\]/snappedOnIndexes: 1 snapped-on entries for 2 items"
expect_refusal "field of another version" "[{\"op\":\"replace\",\"path\":\"/body/chunks/[id=0x03043040]/version\",\"value\":4}]" "not part of this structure"
expect_refusal "unknown member" "[{\"op\":\"add\",\"path\":\"$B/bogus\",\"value\":1}]" "\"bogus\" is not part of this structure"
# annotations ($ members) are read-only: refused naming the path, before any later operation
expect_refusal "annotation added" '[{"op":"add","path":"/body/chunks/6/$x","value":1},{"op":"add","path":"/body/chunks/6/bogus","value":1}]' 'operation 0: /body/chunks/6/$x: annotations ($ members) are read-only'
expect_refusal "stream codec" '[{"op":"replace","path":"/body/$stream/codec","value":"zlib"}]' 'operation 0: /body/$stream/codec: annotations'
expect_refusal "blob reference" '[{"op":"add","path":"/headerChunks/1/packMask/$blob","value":{"$file":"x.bin"}}]' 'operation 0: /headerChunks/1/packMask/$blob: annotations'
expect_refusal "annotation tested" '[{"op":"test","path":"/body/$stream/codec","value":"lzo1x"}]' 'operation 0: /body/$stream/codec: annotations'
expect_refusal "annotation copied" '[{"op":"copy","from":"/body/$stream","path":"/body/chunks/0/playerModel"}]' 'operation 0: /body/$stream: annotations'
expect_refusal "annotation in a value" '[{"op":"replace","path":"/body/chunks/0/playerModel","value":{"id":null,"collection":null,"author":null,"$x":1}}]' 'the value.s member "$x" is an annotation no description reads'
[ "$fails" -eq 0 ] && echo "patch errors: all passed"
[ "$fails" -eq 0 ]
