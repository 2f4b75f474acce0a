#!/bin/sh
# Structure no node of the model has the shape of is built by the format's description on the
# smallest draft around it (patch/model_draft.c, docs/usage.md "How apply works"), on the
# project's samples: a version change with the members it brings and takes away, a new member,
# the first element of an empty list, a stream annotation, the whole document replaced. Each
# output reads back, verifies exactly and shows the edit in its dump; what the description
# refuses is refused with the operation that opened the draft and the path, nothing written.
. "$(dirname "$0")/../lib.sh"

map=$src/samples/gbx/sample.Map.Gbx
tpa=$src/samples/tres/box.tpa

# applies $2 to $1 into $3; the output verifies exactly
applies() {
    "$rebyte" apply -q "$2" "$1" -o "$3" 2>"$tmp/err" || { fail "$(basename "$2"): $(cat "$tmp/err")"; return 1; }
    "$rebyte" verify "$3" >"$tmp/verify" 2>&1 && grep -q "^exact" "$tmp/verify" ||
        { fail "$(basename "$2"): the output does not verify exactly: $(cat "$tmp/verify")"; return 1; }
}
# the value at pointer $2 of the dump of $1, compact
value_at() {
    "$rebyte" dump "$1" -o "$tmp/dump.json" && python3 - "$tmp/dump.json" "$2" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for token in sys.argv[2].split("/")[1:]:
    v = v[int(token)] if isinstance(v, list) else v[token.replace("~1", "/").replace("~0", "~")]
print(json.dumps(v, sort_keys=True, separators=(",", ":")))
PY
}
# $1 refuses patch $2 with a message holding $3, and writes nothing
refuses() {
    rm -f "$tmp/refused.out"
    "$rebyte" apply -q "$2" "$1" -o "$tmp/refused.out" 2>"$tmp/err" && fail "$(basename "$2") was taken"
    grep -q -- "$3" "$tmp/err" || fail "$(basename "$2"): the refusal does not say \"$3\": $(cat "$tmp/err")"
    [ ! -e "$tmp/refused.out" ] || fail "$(basename "$2"): a refused patch wrote a file"
}

# a version change (chunk 0x03043049 describes clipAmbiance from version 2, clipTriggerSize from
# 1): down to 0 with both members taken away, then up to 2 with both added back, in the order a
# person writes them; the description checks the chunk once the patch is done
clips=/body/chunks/[id=0x03043049]
cat >"$tmp/down.json" <<EOF
[{"op": "replace", "path": "$clips/version", "value": 0},
 {"op": "remove", "path": "$clips/clipAmbiance"},
 {"op": "remove", "path": "$clips/clipTriggerSize"}]
EOF
if applies "$map" "$tmp/down.json" "$tmp/down.Gbx"; then
    [ "$(value_at "$tmp/down.Gbx" /body/chunks/10)" = \
      '{"clipGroupEndRace":{"index":-1},"clipGroupInGame":{"index":-1},"clipIntro":{"index":-1},"clipPodium":{"index":-1},"id":"0x03043049","version":0}' ] ||
        fail "version 0: $(value_at "$tmp/down.Gbx" /body/chunks/10)"
    cat >"$tmp/up.json" <<EOF
[{"op": "replace", "path": "$clips/version", "value": 2},
 {"op": "add", "path": "$clips/clipAmbiance", "value": {"index": -1}},
 {"op": "add", "path": "$clips/clipTriggerSize", "value": [5, 6, 7]}]
EOF
    if applies "$tmp/down.Gbx" "$tmp/up.json" "$tmp/up.Gbx"; then
        [ "$(value_at "$tmp/up.Gbx" /body/chunks/10/clipTriggerSize)" = "[5,6,7]" ] || fail "new member after a version change"
        # the same members with the sample's own values give the sample's bytes back
        sed 's/\[5, 6, 7\]/[3, 1, 3]/' "$tmp/up.json" >"$tmp/back.json"
        applies "$tmp/down.Gbx" "$tmp/back.json" "$tmp/back.Gbx" && cmp -s "$tmp/back.Gbx" "$map" ||
            fail "down to version 0 and back up does not give the sample's bytes"
        # a copy inside the draft (a member taken from its neighbour) and the dry run's list
        cat >"$tmp/copy.json" <<EOF
[{"op": "replace", "path": "$clips/version", "value": 2},
 {"op": "copy", "from": "$clips/clipIntro", "path": "$clips/clipAmbiance"},
 {"op": "add", "path": "$clips/clipTriggerSize", "value": [3, 1, 3]}]
EOF
        applies "$tmp/down.Gbx" "$tmp/copy.json" "$tmp/copy.Gbx" && cmp -s "$tmp/copy.Gbx" "$map" ||
            fail "a member copied inside the draft does not give the sample's bytes"
        "$rebyte" apply --dry-run "$tmp/copy.json" "$tmp/down.Gbx" >"$tmp/dry" 2>&1
        grep -q 'copy .*/body/chunks/10/clipAmbiance -> {"index":-1}' "$tmp/dry" ||
            fail "the dry run does not list the copy: $(cat "$tmp/dry")"
    fi
fi
# the description refuses a version without its members, naming the operation and the path
printf '[{"op": "test", "path": "%s/version", "value": 2}, {"op": "replace", "path": "%s/version", "value": 1}]' \
    "$clips" "$clips" >"$tmp/version-only.json"
refuses "$map" "$tmp/version-only.json" 'operation 1: /body/chunks/10: member "clipAmbiance" is not part'
# a member the chunk's description does not know
printf '[{"op": "add", "path": "/body/chunks/3/u02", "value": 1}]' >"$tmp/unknown.json"
refuses "$map" "$tmp/unknown.json" 'operation 0: /body/chunks/3'

# the first element of an empty list (a TPA's collisions: the document is the draft)
transfer='{"volumeMax": 1.0, "volumeMin": 0.0, "volumeSlope": 0.5, "volumeIntercept": 0.25, "pitchMax": 1.0,
  "pitchMin": 1.0, "pitchSlope": 0.0, "pitchIntercept": 0.0, "attenuation": 0.75, "minimumVelocity": 2.0}'
cat >"$tmp/first.json" <<EOF
[{"op": "add", "path": "/collisions/0", "value": {"material1": "0x00000001", "material2": "0x00000002",
  "flags": "0x00000000", "minimumDelay": 0.5, "timeLastUsed": 0.0, "hit1": "0xF0A07BD9", "hit2": "0xEC87D408",
  "slide": "0x00000000", "hit1Transfer": $transfer, "hit2Transfer": $transfer, "slideTransfer": $transfer}}]
EOF
if applies "$tpa" "$tmp/first.json" "$tmp/first.tpa"; then
    [ "$(value_at "$tmp/first.tpa" /collisions/0/hit2Transfer/attenuation)" = "0.75" ] || fail "the first collision"
fi
# a value its type cannot hold is refused by the description
sed 's/"minimumDelay": 0.5/"minimumDelay": "soon"/' "$tmp/first.json" >"$tmp/first-bad.json"
refuses "$tpa" "$tmp/first-bad.json" 'operation 0: /collisions/0/minimumDelay'

# a stream annotation: without its original bytes the body is encoded again, to the same model
printf '[{"op": "remove", "path": "/body/$stream/original"}]' >"$tmp/stream.json"
if applies "$map" "$tmp/stream.json" "$tmp/stream.Gbx"; then
    "$rebyte" diff --plain "$map" "$tmp/stream.Gbx" >"$tmp/stream.diff"; rc=$?
    [ $rc -eq 0 ] || fail "a re-encoded body changed the model: $(cat "$tmp/stream.diff")"
fi

# a new chunk in a node's chunk list (a draft of its own), then a whole-document replace
printf '[{"op": "add", "path": "/body/chunks/4", "value": {"id": "0x03043022", "u01": 7}}]' >"$tmp/chunk.json"
applies "$map" "$tmp/chunk.json" "$tmp/chunk.Gbx" && [ "$(value_at "$tmp/chunk.Gbx" /body/chunks/4/u01)" = 7 ] ||
    fail "a new chunk"
"$rebyte" apply -q "$src/samples/gbx/cookbook/rename.patch.json" "$map" -o "$tmp/renamed.Gbx" || fail "rename"
"$rebyte" dump --blobs=base64 "$tmp/renamed.Gbx" -o "$tmp/renamed.json" || fail "dump renamed"
python3 - "$tmp/renamed.json" "$tmp/whole.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for k in [k for k in doc if k.startswith("$")]:
    del doc[k]
json.dump([{"op": "replace", "path": "", "value": doc}], open(sys.argv[2], "w"))
PY
applies "$map" "$tmp/whole.json" "$tmp/whole.Gbx" && cmp -s "$tmp/whole.Gbx" "$tmp/renamed.Gbx" ||
    fail "the whole document replaced by the renamed map's model does not give its bytes"

[ $fails -eq 0 ] && echo "patch drafts: ok"
[ $fails -eq 0 ]
