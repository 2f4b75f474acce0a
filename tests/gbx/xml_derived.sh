#!/bin/sh
# Every header XML attribute rebyte derives from the body says what the game wrote
# (docs/formats/gbx.md "Header copies"): `check` on every corpus map and every map of the public
# test world (maps, maps-tm2020; tests/public/README.md) finds no header-copies warning about the
# XML. Game-written maps hold the body's facts in their XML, so such a warning on an unmodified
# map is a derivation the game does not make (a mood, a name's spelling of its era).
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
require_python
public=${REBYTE_PUBLIC:-$shared/public}
folders=$corpus
for set in maps maps-tm2020; do
    [ -d "$public/$set" ] && folders="$folders $public/$set"
done
# shellcheck disable=SC2086 # the folders are separate arguments
"$rebyte" check --json $folders >"$tmp/check.jsonl" 2>/dev/null
# shellcheck disable=SC2086
grep -l -a '<header ' $(find $folders -type f \( -iname '*.Map.Gbx' -o -iname '*.Challenge.Gbx' \)) 2>/dev/null |
    wc -l >"$tmp/with_xml"
python3 - "$tmp/check.jsonl" "$(cat "$tmp/with_xml")" >"$tmp/report" <<'PY'
import json, sys
stale, files = [], 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    files += 1
    for v in r.get("violations", []):
        if v.get("rule") == "header-copies" and v.get("path", "").endswith("/xml"):
            stale.append(f"{r['file'].rsplit('/', 1)[-1]}: {v.get('message')}")
print(len(stale), files, int(sys.argv[2]))
for s in stale:
    print(s)
PY
read -r stale files with_xml <"$tmp/report"
[ "$with_xml" -ge 100 ] || fail "only $with_xml maps with a header XML were found (the test reads too little)"
[ "$stale" -eq 0 ] || fail "$stale XML copies are not what rebyte derives: $(tail -n +2 "$tmp/report")"
finish "XML copies derived ($files files checked, $with_xml maps with a header XML)"
