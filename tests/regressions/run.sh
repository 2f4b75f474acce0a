#!/bin/sh
# Regression inputs, each built from a JSON model by rebyte itself: every bug found (by fuzzing or
# otherwise) becomes one. Each must build, verify exactly, and survive dump/build.
. "$(dirname "$0")/../lib.sh"
dir=$(dirname "$0")
for json in "$dir"/*.json; do
    name=$(basename "$json" .json)
    "$rebyte" build "$json" -o "$tmp/$name" || { echo "FAIL $name: does not build"; fails=$((fails + 1)); continue; }
    "$rebyte" verify -q "$tmp/$name" >/dev/null || { echo "FAIL $name: not exact"; "$rebyte" verify "$tmp/$name"; fails=$((fails + 1)); continue; }
    "$rebyte" dump --blobs=base64 "$tmp/$name" -o "$tmp/$name.json" && "$rebyte" build "$tmp/$name.json" -o "$tmp/$name.2" &&
        cmp -s "$tmp/$name" "$tmp/$name.2" || { echo "FAIL $name: dump/build differs"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] && echo "regressions: all passed"
[ "$fails" -eq 0 ]
