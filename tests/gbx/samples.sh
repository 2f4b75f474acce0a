#!/bin/sh
# The bundled samples: each binary sample is what `rebyte build` makes of its JSON source (so
# the samples are the project's own writer's output and stay in sync with it), verifies, and
# every sample patch applies to its sample and verifies.
. "$(dirname "$0")/../lib.sh"
for json in "$src"/samples/gbx/*.Map.json; do
    bin=${json%.json}.Gbx
    "$rebyte" build "$json" -o "$tmp/built" || { fail "build $json"; continue; }
    cmp -s "$tmp/built" "$bin" || fail "$bin is not what \`rebyte build\` makes of $json"
    "$rebyte" verify -q "$bin" >/dev/null || fail "verify $bin"
done
sample=$src/samples/gbx/sample.Map.Gbx
for patch in "$src"/samples/gbx/*.patch.json; do
    "$rebyte" apply -q "$patch" "$sample" -o "$tmp/patched.Gbx" || { fail "apply $patch"; continue; }
    "$rebyte" verify -q "$tmp/patched.Gbx" >/dev/null || fail "verify after $patch"
done
# the README's main job: the retimed, renamed map says so
"$rebyte" apply -q "$src/samples/gbx/rename-and-retime.patch.json" "$sample" -o "$tmp/renamed.Gbx"
"$rebyte" info --json "$tmp/renamed.Gbx" > "$tmp/info.json"
grep -q '"name":"rebyte sample (retimed)"' "$tmp/info.json" || fail "renamed map name not in info: $(cat "$tmp/info.json")"
grep -q '"author":29500' "$tmp/info.json" || fail "author time not retimed"
"$rebyte" diff --plain "$sample" "$tmp/renamed.Gbx" > "$tmp/diff.json"
[ "$(grep -c "\"op\"" "$tmp/diff.json")" -eq 3 ] || fail "the patch changed more than the name and two medals: $(cat "$tmp/diff.json")"
# one fact, one place: the body's name and medals reach the header's copies and its XML, which
# the writer derives; check finds the result consistent
"$rebyte" check "$tmp/renamed.Gbx" >/dev/null || fail "check: the renamed sample is not consistent"
grep -a -c "rebyte sample (retimed)" "$tmp/renamed.Gbx" | grep -q "^1$" || fail "the header chunk 003 does not carry the new name"
# a copy the file keeps that disagrees with the body is a deviation check reports
printf '%s' '[{"op":"add","path":"/headerChunks/[id=0x03043003]/mapName","value":"header only"}]' > "$tmp/header-only.json"
"$rebyte" apply -q "$tmp/header-only.json" "$sample" -o "$tmp/header-only.Gbx" 2>/dev/null && fail "a disagreeing header copy was written without --force"
"$rebyte" apply -q --force "$tmp/header-only.json" "$sample" -o "$tmp/header-only.Gbx" 2>/dev/null
"$rebyte" check "$tmp/header-only.Gbx" > "$tmp/check.out"
[ $? -eq 1 ] && grep -q "header-copies: /headerChunks/\[id=0x03043003\]/mapName" "$tmp/check.out" || fail "check missed a header/body mismatch: $(cat "$tmp/check.out")"
"$rebyte" verify "$tmp/header-only.Gbx" | grep -q "note: chunk 0x03043003 keeps its own mapName" || fail "verify does not note the kept copy"
[ "$fails" -eq 0 ] && echo "samples: all passed"
[ "$fails" -eq 0 ]
