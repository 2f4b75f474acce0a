#!/bin/sh
# The audio daemon's block of a scene with sounds playing
# (docs/formats/tres.md "SCN block classes"): a voice-over, music and an ambient sound are
# typed fields, and an edit of one comes back from the written file.
. "$(dirname "$0")/../lib.sh"
scn=${REBYTE_SOURCE:?}/samples/tres/classes.scn
"$rebyte" dump "$scn" -o "$tmp/d.json" || fail "dump"
python3 - "$tmp/d.json" <<'PY' || fail "the playing sounds are not typed"
import json, sys
d = json.load(open(sys.argv[1]))
a = [s for s in d["sections"] if s["name"] == "85DFA9CD"][0]["audioDaemon"]
assert a["voiceOverPlaying"] and a["voiceOver"]["sound"] == "0x3F263B36", a
assert a["musicPlaying"] and a["music"]["volume"] == -20.0, a
assert len(a["ambients"]) == 1 and a["ambients"][0]["loopCount"] == -1 and a["ambients"][0]["looped"], a
PY
i=$(python3 -c 'import json,sys; print([s["name"] for s in json.load(open(sys.argv[1]))["sections"]].index("85DFA9CD"))' "$tmp/d.json")
printf '[{"op":"replace","path":"/sections/%s/audioDaemon/ambients/0/restoreVolume","value":-12.5}]' "$i" > "$tmp/p.json"
"$rebyte" apply "$tmp/p.json" "$scn" -o "$tmp/e.scn" -q || fail "apply"
"$rebyte" verify -q "$tmp/e.scn" >/dev/null || fail "the edited scene does not verify"
"$rebyte" dump "$tmp/e.scn" | grep -q '"restoreVolume": -12.5' || fail "the edit did not reach the file"
# a voice-over flag without its sound is refused when building
python3 - "$tmp/d.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = [s for s in d["sections"] if s["name"] == "85DFA9CD"][0]["audioDaemon"]
del a["voiceOver"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$rebyte" build "$tmp/bad.json" -o "$tmp/bad.scn" 2>"$tmp/err" && fail "a voice-over flag without its sound was built"
grep -q "voiceOver" "$tmp/err" || fail "the refusal does not name voiceOver: $(cat "$tmp/err")"
finish "tres audio daemon"
