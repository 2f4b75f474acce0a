#!/bin/sh
# One patch, every element (docs/usage.md "One patch, every element"): "each" and [*] on every
# match (none included), "offset" through the field's type, "count", names for what was added
# ("as", @NAME) within a patch and across stacked patches, conflicts of expanded operations,
# `resolve` printing the plain operations, `json-patch` taking the same members, and `diff`
# never printing them. On the sample map (blocks at [17,9,17], [17,9,18], [17,9,19]; two items).
. "$(dirname "$0")/../lib.sh"
sample=$src/samples/gbx/sample.Map.Gbx
B='/body/chunks/[id=0x0304301F]'
I='/body/chunks/[id=0x03043040]/anchoredObjects'
patch() { printf '%s' "$2" > "$tmp/$1.json"; }
refused() { # NAME MESSAGE: the patch is refused with exit 2, the message, nothing written
    rm -f "$tmp/out.Gbx"
    "$rebyte" apply --patch "$tmp/$1.json" "$sample" -o "$tmp/out.Gbx" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "$1: exit $rc, not 2"
    grep -qF -- "$2" "$tmp/err" || fail "$1: message: $(cat "$tmp/err")"
    [ ! -e "$tmp/out.Gbx" ] || fail "$1: written"
}
coords() { "$rebyte" dump "$1" | tr -d ' \n' | grep -o '"coord":\[[0-9,]*\]' | tr '\n' ' '; }

# every block one block up: resolve gives one replace per block with the sum, apply writes it
patch raise "[{\"op\":\"offset\",\"path\":\"$B/blocks/[*]/coord\",\"value\":[0,1,0],\"each\":true}]"
"$rebyte" resolve "$tmp/raise.json" "$sample" | tr -d ' \n' > "$tmp/raise.plain"
grep -q '"op":"replace","path":"/body/chunks/2/blocks/0/coord","value":\[17,10,17\]}' "$tmp/raise.plain" &&
    grep -q '"path":"/body/chunks/2/blocks/2/coord","value":\[17,10,19\]}' "$tmp/raise.plain" ||
    fail "resolve of each + offset: $(cat "$tmp/raise.plain")"
grep -q 'offset\|each' "$tmp/raise.plain" && fail "resolve kept offset or each"
"$rebyte" apply --patch "$tmp/raise.json" "$sample" -o "$tmp/raised.Gbx" 2>"$tmp/err" || fail "raise: $(cat "$tmp/err")"
grep -q "each: 3 matches" "$tmp/err" || fail "the report does not count the matches: $(cat "$tmp/err")"
[ "$(coords "$tmp/raised.Gbx")" = '"coord":[17,10,17] "coord":[17,10,18] "coord":[17,10,19] ' ] ||
    fail "raised coordinates: $(coords "$tmp/raised.Gbx")"
# the resolved patch is plain RFC 6902 that apply takes to the same bytes
"$rebyte" resolve "$tmp/raise.json" "$sample" > "$tmp/raise.resolved.json"
"$rebyte" apply -q --patch "$tmp/raise.resolved.json" "$sample" -o "$tmp/raised2.Gbx" && cmp -s "$tmp/raised.Gbx" "$tmp/raised2.Gbx" ||
    fail "the resolved patch does not give the same bytes"
# diff never prints the extensions
"$rebyte" diff --plain "$sample" "$tmp/raised.Gbx" > "$tmp/raise.diff"
grep -q '"offset"\|"each"\|\[\*\]' "$tmp/raise.diff" && fail "diff printed an extension"

# without each: [*] and a selector of several matches are refused as before
patch star "[{\"op\":\"offset\",\"path\":\"$B/blocks/[*]/coord\",\"value\":[0,1,0]}]"
refused star '"each": true'
patch several "[{\"op\":\"replace\",\"path\":\"$B/blocks/[flags=0x00001000]/direction\",\"value\":1}]"
refused several "matches 3 elements (it must match exactly one)"
# count: a number of matches that does not hold is refused, naming the number found
patch count "[{\"op\":\"offset\",\"path\":\"$B/blocks/[*]/coord\",\"value\":[0,1,0],\"each\":true,\"count\":4}]"
refused count '"count": 4 expected, 3 found'
patch count1 "[{\"op\":\"replace\",\"path\":\"$B/mapName\",\"value\":\"x\",\"count\":2}]"
refused count1 '"count": 2 expected, 1 found'
# each with no match applies nothing and says so
patch none "[{\"op\":\"remove\",\"path\":\"$B/blocks/[name=NoSuchBlock]\",\"each\":true}]"
"$rebyte" apply --patch "$tmp/none.json" "$sample" -o "$tmp/none.Gbx" 2>"$tmp/err" || fail "each of 0 matches refused"
grep -q "each: 0 matches" "$tmp/err" && grep -q "(0 changes)" "$tmp/err" || fail "each of 0 matches: $(cat "$tmp/err")"
cmp -s "$sample" "$tmp/none.Gbx" || fail "each of 0 matches changed the file"

# offset: through the wire type (u8 overflow, a whole number for an integer), an f32 in its width
patch overflow "[{\"op\":\"offset\",\"path\":\"$B/blocks/[*]/coord\",\"value\":[0,250,0],\"each\":true}]"
refused overflow "/body/chunks/2/blocks/0/coord/1: 9 + 250 does not fit a u8"
patch under "[{\"op\":\"offset\",\"path\":\"$B/blocks/0/coord/1\",\"value\":-10}]"
refused under "9 - 10 does not fit a u8"
patch half "[{\"op\":\"offset\",\"path\":\"$B/blocks/0/coord/1\",\"value\":0.5}]"
refused half "takes a whole offset"
patch text "[{\"op\":\"offset\",\"path\":\"$B/mapName\",\"value\":1}]"
refused text "adds to numbers"
patch items "[{\"op\":\"offset\",\"path\":\"$I/[*]/chunks/[id=0x03101002]/absolutePositionInMap\",\"value\":[0.1,8,0],\"each\":true,\"count\":2}]"
"$rebyte" resolve "$tmp/items.json" "$sample" | tr -d ' \n' > "$tmp/items.plain"
# 552 + 0.1 in single precision is the f32 spelled 552.1; 568 + 0.1 the one spelled 568.1
grep -q '"value":\[552.1,80.0,560.0\]' "$tmp/items.plain" && grep -q '"value":\[568.1,80.0,560.0\]' "$tmp/items.plain" ||
    fail "f32 offsets: $(cat "$tmp/items.plain")"
"$rebyte" apply -q --patch "$tmp/items.json" "$sample" -o "$tmp/items.Gbx" || fail "items moved up"

# a time: the bronze medal 1000 ms later (a u32)
patch later "[{\"op\":\"offset\",\"path\":\"/body/chunks/[id=0x03043011]/challengeParameters/chunks/[id=0x0305B004]/bronzeTime\",\"value\":1000}]"
bronze=$("$rebyte" info --json "$sample" | grep -o '"bronze":[0-9]*' | cut -d: -f2)
"$rebyte" apply -q --patch "$tmp/later.json" "$sample" -o "$tmp/later.Gbx" || fail "a time offset"
"$rebyte" info --json "$tmp/later.Gbx" | grep -q "\"bronze\":$((bronze + 1000))" || fail "bronze not $((bronze + 1000))"

# remove with each: every match, from the last one back
patch rmall "[{\"op\":\"remove\",\"path\":\"$B/blocks/[flags=0x00001000]\",\"each\":true}]"
"$rebyte" resolve "$tmp/rmall.json" "$sample" | tr -d ' \n' > "$tmp/rmall.plain"
[ "$(grep -o 'blocks/[0-9]' "$tmp/rmall.plain" | tr '\n' ' ')" = 'blocks/2 blocks/1 blocks/0 ' ] ||
    fail "removals not from the end: $(cat "$tmp/rmall.plain")"
"$rebyte" apply -q --patch "$tmp/rmall.json" "$sample" -o "$tmp/rmall.Gbx" || fail "remove every block"
[ -z "$(coords "$tmp/rmall.Gbx")" ] || fail "blocks left: $(coords "$tmp/rmall.Gbx")"
# a name replaced on every match
patch rename "[{\"op\":\"replace\",\"path\":\"$B/blocks/[flags=0x00001000]/name\",\"value\":\"StadiumRoadMainStraight\",\"each\":true}]"
"$rebyte" apply -q --patch "$tmp/rename.json" "$sample" -o "$tmp/rename.Gbx" || fail "rename every block"
[ "$("$rebyte" dump "$tmp/rename.Gbx" | grep -c '"name": "StadiumRoadMainStraight"')" -eq 3 ] || fail "not every block renamed"

# a name for what was added: copy, move the copy, remove a block before it, the name follows
patch named "[{\"op\":\"copy\",\"from\":\"$B/blocks/[name=StadiumRoadMainStartLine]\",\"path\":\"$B/blocks/-\",\"as\":\"cp\"},
 {\"op\":\"offset\",\"path\":\"@cp/coord\",\"value\":[0,1,0]},
 {\"op\":\"remove\",\"path\":\"$B/blocks/1\"},
 {\"op\":\"test\",\"path\":\"@cp/coord\",\"value\":[17,10,17]}]"
"$rebyte" resolve "$tmp/named.json" "$sample" | tr -d ' \n' > "$tmp/named.plain"
grep -q '"op":"replace","path":"/body/chunks/2/blocks/3/coord","value":\[17,10,17\]' "$tmp/named.plain" &&
    grep -q '"op":"test","path":"/body/chunks/2/blocks/2/coord"' "$tmp/named.plain" ||
    fail "names in resolve: $(cat "$tmp/named.plain")"
"$rebyte" apply -q --patch "$tmp/named.json" "$sample" -o "$tmp/named.Gbx" || fail "copy and move the copy"
[ "$(coords "$tmp/named.Gbx")" = '"coord":[17,9,17] "coord":[17,9,19] "coord":[17,10,17] ' ] ||
    fail "copy moved: $(coords "$tmp/named.Gbx")"
# names of many elements: copies of every block before every block (each pair), all removed
# again through their name, give the file back byte for byte
patch manycopies "[{\"op\":\"copy\",\"from\":\"$B/blocks/[*]\",\"path\":\"$B/blocks/[*]\",\"each\":true,\"as\":\"c\",\"count\":9},
 {\"op\":\"remove\",\"path\":\"@c\",\"each\":true,\"count\":9}]"
"$rebyte" apply -q --patch "$tmp/manycopies.json" "$sample" -o "$tmp/manycopies.Gbx" && cmp -s "$sample" "$tmp/manycopies.Gbx" ||
    fail "copies removed through their name"
patch unknown "[{\"op\":\"replace\",\"path\":\"@nope/coord\",\"value\":[1,1,1]}]"
refused unknown 'no earlier operation put an element in place "as": "nope"'
patch gone "[{\"op\":\"copy\",\"from\":\"$B/blocks/0\",\"path\":\"$B/blocks/-\",\"as\":\"cp\"},{\"op\":\"remove\",\"path\":\"$B/blocks/3\"},{\"op\":\"remove\",\"path\":\"@cp\"}]"
refused gone 'an operation removed what "cp" named'
patch badas "[{\"op\":\"replace\",\"path\":\"$B/mapName\",\"value\":\"x\",\"as\":\"n\"}]"
refused badas '"as" names'

# stacked: a name given by one patch is used by the next; an expanded change conflicts by place
patch s1 "[{\"op\":\"copy\",\"from\":\"$B/blocks/0\",\"path\":\"$B/blocks/-\",\"as\":\"start\"}]"
patch s2 "[{\"op\":\"offset\",\"path\":\"@start/coord/1\",\"value\":2}]"
"$rebyte" apply -q --patch "$tmp/s1.json" --patch "$tmp/s2.json" "$sample" -o "$tmp/s12.Gbx" || fail "a name across stacked patches"
[ "$(coords "$tmp/s12.Gbx")" = '"coord":[17,9,17] "coord":[17,9,18] "coord":[17,9,19] "coord":[17,11,17] ' ] ||
    fail "stacked name: $(coords "$tmp/s12.Gbx")"
patch other "[{\"op\":\"replace\",\"path\":\"$B/blocks/1/coord\",\"value\":[1,1,1]}]"
"$rebyte" apply --patch "$tmp/other.json" --patch "$tmp/raise.json" "$sample" -o "$tmp/c.Gbx" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "both change /body/chunks/2/blocks/1/coord" "$tmp/err" || fail "expanded conflict: $(cat "$tmp/err")"

# plain JSON: json-patch takes the same members (a patch without them stays RFC 6902 alone)
printf '{"a":[{"k":"x","n":1},{"k":"y","n":2},{"k":"x","n":3.5}],"t":10}' > "$tmp/doc.json"
patch json "[{\"op\":\"offset\",\"path\":\"/a/[k=x]/n\",\"value\":1,\"each\":true,\"count\":2},
 {\"op\":\"copy\",\"from\":\"/a/[k=y]\",\"path\":\"/a/-\",\"as\":\"c\"},{\"op\":\"replace\",\"path\":\"@c/k\",\"value\":\"z\"},
 {\"op\":\"offset\",\"path\":\"/t\",\"value\":-3}]"
"$rebyte" json-patch "$tmp/doc.json" "$tmp/json.json" 2>/dev/null | tr -d ' \n' > "$tmp/json.out"
[ "$(cat "$tmp/json.out")" = '{"a":[{"k":"x","n":2},{"k":"y","n":2},{"k":"x","n":4.5},{"k":"z","n":2}],"t":7}' ] ||
    fail "json-patch extensions: $(cat "$tmp/json.out")"
# a move or a copy of every match: in document order, each "from" following the ones before it;
# an index written as the target stays a place in the list
printf '{"a":["x1","y","x2","z","x3"]}' > "$tmp/list.json"
patch moves '[{"op":"move","from":"/a/[*]","path":"/a/0","each":true,"count":5}]'
[ "$("$rebyte" json-patch "$tmp/list.json" "$tmp/moves.json" 2>/dev/null | tr -d ' \n')" = '{"a":["x3","z","x2","y","x1"]}' ] ||
    fail "move of every element to the front"
patch copies '[{"op":"copy","from":"/a/[*]","path":"/a/-","each":true}]'
[ "$("$rebyte" json-patch "$tmp/list.json" "$tmp/copies.json" 2>/dev/null | tr -d ' \n')" = '{"a":["x1","y","x2","z","x3","x1","y","x2","z","x3"]}' ] ||
    fail "copy of every element to the end"
patch before '[{"op":"add","path":"/a/[*]","value":"n","each":true}]'
[ "$("$rebyte" json-patch "$tmp/list.json" "$tmp/before.json" 2>/dev/null | tr -d ' \n')" = '{"a":["n","x1","n","y","n","x2","n","z","n","x3"]}' ] ||
    fail "an insertion before every element"
# several patches on plain JSON stack as apply stacks them: a selector alone is resolved, and two
# patches that change one place stop, or keep the first or the last
printf '{"l":[{"id":1,"v":0},{"id":2,"v":0}]}' > "$tmp/ids.json"
patch by_id '[{"op":"replace","path":"/l/[id=2]/v","value":5}]'
patch by_index '[{"op":"replace","path":"/l/1","value":7}]'
[ "$("$rebyte" json-patch "$tmp/ids.json" "$tmp/by_id.json" 2>/dev/null | tr -d ' \n')" = '{"l":[{"id":1,"v":0},{"id":2,"v":5}]}' ] ||
    fail "json-patch: a selector alone"
"$rebyte" json-patch "$tmp/ids.json" "$tmp/by_id.json" "$tmp/by_index.json" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "both change /l/1" "$tmp/err" || fail "json-patch conflict: $(cat "$tmp/err")"
[ "$("$rebyte" json-patch "$tmp/ids.json" "$tmp/by_id.json" "$tmp/by_index.json" --conflicts last-wins 2>/dev/null | tr -d ' \n')" = '{"l":[{"id":1,"v":0},7]}' ] ||
    fail "json-patch --conflicts last-wins"
[ "$("$rebyte" json-patch "$tmp/ids.json" "$tmp/by_id.json" "$tmp/by_index.json" --conflicts first-wins 2>/dev/null | tr -d ' \n')" = '{"l":[{"id":1,"v":0},{"id":2,"v":5}]}' ] ||
    fail "json-patch --conflicts first-wins"
finish "each, [*], offset, count and names"
