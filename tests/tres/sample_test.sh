#!/bin/sh
# The samples are made by `rebyte build` from the JSON beside them: building again must give
# the same bytes, and each must verify exactly, also with re-encoded streams.
set -u
rebyte=${REBYTE:-rebyte}
samples=${REBYTE_SOURCE:?}/samples/tres
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for json in "$samples"/*.json; do
    case "$json" in *.patch.json) continue ;; esac
    out=$samples/$(basename "$json" .json)
    "$rebyte" build "$json" -o "$tmp/built" 2>"$tmp/err" || { echo "FAIL build $json: $(cat "$tmp/err")"; failed=$((failed + 1)); continue; }
    cmp -s "$tmp/built" "$out" || { echo "FAIL $out differs from a fresh build of $json"; failed=$((failed + 1)); }
    "$rebyte" verify -q "$out" >/dev/null && "$rebyte" verify -q --reencode "$out" >/dev/null ||
        { echo "FAIL verify $out"; failed=$((failed + 1)); }
done
[ "$failed" -eq 0 ] && echo "tres samples: all checks passed"
[ "$failed" -eq 0 ]
