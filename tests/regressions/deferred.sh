#!/bin/sh
# Inputs on which a deferred read once disagreed with the full read (found by the fuzz harness),
# each built from a JSON model by rebyte itself (race recordings as new fixtures): the deferred
# model's law must hold on each (tests/engine/law_deferred.c). Usage: deferred.sh TEST_LAWS
set -u
rebyte=${REBYTE:?}
test_laws=${1:?}
dir=$(dirname "$0")/deferred
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
for json in "$dir"/*.json; do
    name=$(basename "$json" .json)
    "$rebyte" build --new-record "$json" -o "$tmp/$name" || { echo "FAIL $name: does not build"; fails=$((fails + 1)); continue; }
    "$test_laws" --law deferred "$tmp/$name" || fails=$((fails + 1))
done
[ "$fails" -eq 0 ] && echo "deferred regressions: all passed"
[ "$fails" -eq 0 ]
