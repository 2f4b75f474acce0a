#!/bin/sh
# Media-tracker coverage on the real files: every clip file is typed to its last byte, and no file's
# typed parse stops at a media-tracker chunk or inside a clip, clip group, track or media block.
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
"$rebyte" verify --json "$corpus" >"$tmp/verify.jsonl"
python3 - "$tmp/verify.jsonl" "${REBYTE_SOURCE:?}" <<'PY'
import glob, json, os, re, sys
# The class parts (id >> 12) the media tracker describes, read from its chunk tables in
# core/gbx/mediatracker/ (entries {0x........, skippable, "name", fn}, as tests/gbx/gbx_class_index.py reads
# them), and the legacy class parts the GBX reader remaps onto them (its REMAP pairs).
source = sys.argv[2]
MEDIA = set()
for path in glob.glob(os.path.join(source, "core/gbx/mediatracker/*.c")):
    for m in re.finditer(r'^\s*\{0x([0-9A-Fa-f]{8}), (?:\d|GBX_WHOLE_NODE), "', open(path, encoding="utf-8").read(), re.M):
        MEDIA.add(m.group(1).upper()[:5])
if len(MEDIA) < 40:
    sys.exit("FAIL: only %d media-tracker classes found in core/gbx/mediatracker/*.c: has the table syntax changed?" % len(MEDIA))
legacy = set()
for path in glob.glob(os.path.join(source, "core/gbx/**/*.[ch]"), recursive=True):
    for m in re.finditer(r"\{0x([0-9A-Fa-f]{5})000, 0x([0-9A-Fa-f]{5})000\}", open(path, encoding="utf-8").read()):
        if m.group(2).upper() in MEDIA:
            legacy.add(m.group(1).upper())
if not legacy:
    sys.exit("FAIL: no legacy media-tracker class found among the GBX id remaps (core/gbx/)")
MEDIA = sorted(MEDIA | legacy)
print("media tracker classes from the source: %d (%d legacy ids)" % (len(MEDIA), len(legacy)))
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
