#!/bin/sh
# A map whose header XML spells the name's apostrophe &apos; (TMNF 2.11, docs/formats/gbx.md
# "Header copies") is renamed to a name without one: the patch applies (the marker follows the
# fact, core/gbx/map/map_header_xml.c gbx_xml_followers), the output reads back exact, its XML
# holds the new name, the diff of the rename is one operation and re-applies to the same bytes.
# The file is made by the project: a TMNF 2.11 corpus map with a name template, its name given an
# apostrophe and the marker through `build`.
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
require_python
made=
for map in $(ls -S -r "$corpus"/*.Gbx); do
    grep -q 'exever="2.11' "$map" || continue # the header XML is plain text in the file
    "$rebyte" dump "$map" -o "$tmp/map.json" 2>/dev/null || continue
    python3 - "$tmp/map.json" "$tmp/apos.json" <<'PY' || continue
import json, sys
d = json.load(open(sys.argv[1]))
marked = False
for chunk in d.get("headerChunks", []):
    template = chunk.get("xmlTemplate", [])
    if not template or 'exever="2.11' not in str(template[0]):
        continue  # XML-escaped names from TMNF 2.11 on; earlier files spell them URL-style
    for part in template:
        if isinstance(part, dict) and part.get("derived") == "name":
            part["escape"] = "apos"
            marked = True
named = [c for c in d.get("body", {}).get("chunks", []) if isinstance(c, dict) and "mapName" in c]
if not marked or not named:
    sys.exit(1)
named[0]["mapName"] = "Rebyte's test map"
json.dump(d, open(sys.argv[2], "w"))
PY
    "$rebyte" build "$tmp/apos.json" -o "$tmp/apos.Map.Gbx" --source "$map" >/dev/null 2>&1 || continue
    made=$map
    break
done
[ -n "$made" ] || { fail "no corpus map with a name in its header XML template could be made"; finish "apostrophe rename"; }
grep -q "Rebyte&apos;s test map" "$tmp/apos.Map.Gbx" || fail "the made map does not spell the apostrophe &apos;"
printf '%s' '[{"op":"replace","path":"/body/chunks/[id=0x0304301F]/mapName","value":"Renamed map"}]' >"$tmp/rename.json"
"$rebyte" apply -q "$tmp/rename.json" "$tmp/apos.Map.Gbx" -o "$tmp/renamed.Map.Gbx" ||
    fail "a name without an apostrophe is refused on a map that spells one &apos;"
"$rebyte" verify -q "$tmp/renamed.Map.Gbx" >/dev/null || fail "the renamed map does not read back exact"
grep -q 'name="Renamed map"' "$tmp/renamed.Map.Gbx" || fail "the header XML does not hold the new name"
"$rebyte" diff "$tmp/apos.Map.Gbx" "$tmp/renamed.Map.Gbx" >"$tmp/rename.diff"
[ "$(grep '"op"' "$tmp/rename.diff" | grep -vc '"op": "test"')" -eq 1 ] || fail "the rename's diff is not one operation: $(cat "$tmp/rename.diff")"
"$rebyte" apply -q "$tmp/rename.diff" "$tmp/apos.Map.Gbx" -o "$tmp/again.Map.Gbx" &&
    cmp -s "$tmp/renamed.Map.Gbx" "$tmp/again.Map.Gbx" || fail "the rename's diff does not re-apply to the same bytes"
finish "apostrophe rename ($(basename "$made"))"
