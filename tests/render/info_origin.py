"""`rebyte info` in plain words (long): every corpus and public-world file names its game and era
("origin"), a map's environment is a name (never a bare number) and, where the map stores a
number and its header XML spells the name, the name it spells (the id -> name table agrees with
the real files); a corpus file's game agrees with the game its source folder is sorted under
(corpus MANIFEST.tsv: "5_TrackMania Forever/...")."""
import csv
import re
import glob
import json
import os
import subprocess
import sys

REBYTE, SHARED = sys.argv[1], sys.argv[2]
if not os.path.isdir(os.path.join(SHARED, "corpus/gbx")):
    print("SKIP: no corpus under %s" % SHARED)
    sys.exit(77)

# the corpus's folders by game, and a word the game's name holds
FOLDERS = {"0_TrackMania": "TrackMania (2003", "1_TrackMania Sunrise": "Sunrise", "2_TrackMania Original": "Original",
           "3_TrackMania Nations ESWC": "Nations", "4_TrackMania United": "United", "5_TrackMania Forever": "Forever",
           "6_TrackMania 2": "ManiaPlanet", "7_TrackMania Turbo": "Turbo", "8_Trackmania 2020": "Trackmania (2020)"}
sources = {}
for manifest in glob.glob(os.path.join(SHARED, "corpus/*/MANIFEST.tsv")):
    with open(manifest, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            sources[os.path.join(os.path.dirname(manifest), row["file"])] = row.get("source_path", "")

files = sorted(f for f in glob.glob(os.path.join(SHARED, "corpus/*/*")) + glob.glob(os.path.join(SHARED, "public/*/*"))
               if not os.path.basename(f).startswith("MANIFEST"))
failures, checked_games, undetermined, named_ids = [], 0, [], set()


def xml_envir(path):
    """The envir attribute of the header XML as the file's bytes spell it (the header is not
    compressed), or None."""
    with open(path, "rb") as f:
        match = re.search(rb' envir="([^"]*)"', f.read(1 << 20))
    return match.group(1).decode("utf-8", "replace") if match and match.group(1) else None  # some leave it empty


for path in files:
    r = subprocess.run([REBYTE, "info", path, "--json"], capture_output=True)
    if r.returncode != 0:
        failures.append("%s: info exit %d" % (path, r.returncode))
        continue
    info = json.loads(r.stdout)
    origin = info.get("origin", {})
    if not origin.get("game") or not origin.get("era") or not origin.get("detected_from"):
        failures.append("%s: origin %r" % (path, origin))
    environment = info.get("map", {}).get("environment")
    if "map" in info and not isinstance(environment, str):
        failures.append("%s: environment %r is no name" % (path, environment))
    number = info.get("map", {}).get("environmentId")
    if number is not None and number not in named_ids:
        spelled = xml_envir(path)
        if spelled is not None:
            named_ids.add(number)
            if spelled != environment:
                failures.append("%s: environment %d is %r, its header XML says %r" % (path, number, environment, spelled))
    folder = sources.get(path, "").split("/")
    if origin.get("era", "").startswith("any"):  # a class of every era, and nothing else to tell by
        undetermined.append(path)
        continue
    for game_folder, word in FOLDERS.items():
        if game_folder in folder:
            checked_games += 1
            if word not in origin.get("game", ""):
                failures.append("%s (%s): game %r" % (path, game_folder, origin.get("game")))
for failure in failures:
    print("FAIL", failure)
print("info origin: %d files, %d games checked against their corpus folder, environment ids %s named as "
      "their header XML spells them, %d of a class of every era with nothing else to tell by (%s): %s"
      % (len(files), checked_games, sorted(named_ids), len(undetermined),
      ", ".join(os.path.basename(p) for p in undetermined[:5]), "ok" if not failures else "%d failure(s)" % len(failures)))
sys.exit(1 if failures else 0)
