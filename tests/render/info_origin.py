"""`rebyte info` in plain words (long): every corpus and public-world file names its game and era
("origin"), a map's environment is a name (never a bare number), and a corpus file's game agrees
with the game its source folder is sorted under (corpus MANIFEST.tsv: "5_TrackMania Forever/...")."""
import csv
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
failures, checked_games, undetermined = [], 0, []
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
print("info origin: %d files, %d games checked against their corpus folder, %d of a class of every era "
      "with nothing else to tell by (%s): %s" % (len(files), checked_games, len(undetermined),
      ", ".join(os.path.basename(p) for p in undetermined[:5]), "ok" if not failures else "%d failure(s)" % len(failures)))
sys.exit(1 if failures else 0)
