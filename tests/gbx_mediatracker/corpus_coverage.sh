#!/bin/sh
# Media-tracker coverage on the real files: every clip file is typed to its last byte, and no file's
# typed parse stops at a media-tracker chunk or inside a clip, clip group, track or media block.
set -u
rebyte=${REBYTE:-rebyte}
corpus=${REBYTE_SHARED:-../shared}/corpus/gbx
if [ ! -d "$corpus" ]; then
    echo "corpus not found: $corpus (set REBYTE_SHARED)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$rebyte" verify --json "$corpus" >"$tmp/verify.jsonl"
python3 - "$tmp/verify.jsonl" <<'PY'
import json, re, sys
# class parts (current and legacy) of every class mediatracker.c describes
MEDIA = ("03078 03079 0307A 0307B 0307D 03080 03081 03082 03083 03084 03085 030A0 030A1 030A2 030A4 "
         "030A5 030A6 030A7 030A8 030A9 030AB 030C0 030E5 030EB 0309F 03024 03029 0304B 0304C 03126 "
         "03127 03128 03129 0312A 03133 03139 03145 03161 03165 03166 03169 0316A 0316C 0316D 03172 "
         "03186 03188 03195 03199 0325E 03294 0338B 07001 07002 0700F 07010 0A005 0A011 2405A 2405F "
         "2406B 2406D 24066 24067 24068 24075 24076 24077 24083 24061 24062 2407F 24092 24091").split()
no_layout = re.compile(r"chunk 0x(%s)[0-9A-F]{3} has no known layout" % "|".join(MEDIA))
in_media = re.compile(r"> (clip\w*|clips\[\d+\]|tracks\[\d+\]|effect|ghostModel|simpleEventsDisplay) ")
fails, clips, files = 0, 0, 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("summary"):
        continue
    files += 1
    name = r["file"].rsplit("/", 1)[-1]
    if r.get("status") != "exact":
        print("FAIL not exact:", name); fails += 1
    for note in r.get("notes", []):
        if "typed parse stopped" in note and (no_layout.search(note) or in_media.search(note)):
            print("FAIL typed parse stops in the media tracker:", name, note); fails += 1
    if name.endswith(".Clip.Gbx"):
        clips += 1
        if r.get("opaque_bytes") != 0 or r.get("opaque_tail"):
            print("FAIL clip not fully typed:", name, r.get("opaque_bytes")); fails += 1
if clips == 0:
    print("FAIL no clip file in the corpus"); fails += 1
print("media tracker corpus: %d files, %d clips, %d failures" % (files, clips, fails))
sys.exit(1 if fails else 0)
PY
