#!/bin/sh
# Map header chunks and skippable map chunks on the project's own sample (built from JSON):
# the sample is what `rebyte build` makes of its JSON, every chunk of it is typed, and edits that
# change derived values (thumbnail size, header chunk sizes, SmallLen counts, id tables) give
# files whose stored sizes match what an independent reader (check_sizes.py) finds.
set -u
rebyte=${REBYTE:-rebyte}
src=${REBYTE_SOURCE:?}
dir=$src/samples/gbx-mapextra
here=$src/tests/gbx_mapextra
command -v python3 >/dev/null || { echo "python3 not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

"$rebyte" build "$dir/extras.Map.json" -o "$tmp/built.Gbx" || fail "build extras.Map.json"
cmp -s "$tmp/built.Gbx" "$dir/extras.Map.Gbx" || fail "extras.Map.Gbx is not what \`rebyte build\` makes of its JSON"
"$rebyte" verify -q "$dir/extras.Map.Gbx" >/dev/null || fail "verify extras.Map.Gbx"
"$rebyte" dump "$dir/extras.Map.Gbx" --blobs=base64 -o "$tmp/extras.json" || fail "dump"
python3 "$here/check_sizes.py" typed "$tmp/extras.json" || fail "not every chunk of the sample is typed"
python3 "$here/check_sizes.py" sizes "$dir/extras.Map.Gbx" || fail "sizes of the sample"

# thumbnail + author: the thumbnail grows, so its size field and the header chunk size change
"$rebyte" apply -q "$dir/thumbnail-and-author.patch.json" "$dir/extras.Map.Gbx" -o "$tmp/thumb.Gbx" || fail "apply thumbnail patch"
python3 "$here/check_sizes.py" sizes "$tmp/thumb.Gbx" "$dir/thumbnail-and-author.patch.json" || fail "sizes after the thumbnail patch"
"$rebyte" dump "$tmp/thumb.Gbx" -o "$tmp/thumb.json"
grep -q '"authorNickname": "rebyte (edited)"' "$tmp/thumb.json" || fail "author nickname not edited"

# item colour, a new script trait (SmallLen count and string), a new title id
"$rebyte" apply -q "$dir/colour-trait-title.patch.json" "$dir/extras.Map.Gbx" -o "$tmp/trait.Gbx" || fail "apply trait patch"
"$rebyte" dump "$tmp/trait.Gbx" -o "$tmp/trait.json"
python3 "$here/check_sizes.py" trait "$tmp/trait.json" || fail "trait/colour/title edits not read back"

# the JSON direction validates versions: a version-13 TmDesc without nbLaps is refused
python3 - "$dir/extras.Map.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["headerChunks"][0]["nbLaps"]
json.dump(d, open(sys.argv[2], "w"))
PY
if "$rebyte" build "$tmp/bad.json" -o "$tmp/bad.Gbx" 2>"$tmp/bad.err"; then
    fail "a TmDesc version 13 without nbLaps was accepted"
else
    grep -q nbLaps "$tmp/bad.err" || fail "the error does not name the missing field: $(cat "$tmp/bad.err")"
fi
[ "$fails" -eq 0 ] && echo "gbx map extras samples: all passed"
[ "$fails" -eq 0 ]
