#!/bin/sh
# The samples are made by `rebyte build` from the JSON beside them: building again must give
# the same bytes, and each must verify exactly, also with re-encoded streams.
. "$(dirname "$0")/../lib.sh"
samples=${REBYTE_SOURCE:?}/samples/tres
for json in "$samples"/*.json; do
    case "$json" in *.patch.json) continue ;; esac
    out=$samples/$(basename "$json" .json)
    "$rebyte" build "$json" -o "$tmp/built" 2>"$tmp/err" || { echo "FAIL build $json: $(cat "$tmp/err")"; fails=$((fails + 1)); continue; }
    cmp -s "$tmp/built" "$out" || { echo "FAIL $out differs from a fresh build of $json"; fails=$((fails + 1)); }
    "$rebyte" verify -q "$out" >/dev/null && "$rebyte" verify -q --reencode "$out" >/dev/null ||
        { echo "FAIL verify $out"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] && echo "tres samples: all checks passed"
[ "$fails" -eq 0 ]
