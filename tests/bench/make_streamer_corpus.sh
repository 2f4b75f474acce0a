#!/bin/sh
# Makes a large SA:MP streamer map for rebyte_bench (the corpus has no real one): the chunk kinds
# of samples/streamer/stunt-park.json repeated with varying values, written by the project's own
# writer (`rebyte build`).
#   tests/bench/make_streamer_corpus.sh REBYTE OUT_DIR [GROUPS] [OBJECTS_PER_GROUP]
# Default: 8 groups x 12000 objects (about 4 MB, like the largest GROFF and data.win files).
set -e
rebyte=${1:?usage: make_streamer_corpus.sh REBYTE OUT_DIR [GROUPS] [OBJECTS_PER_GROUP]}
out=${2:?usage: make_streamer_corpus.sh REBYTE OUT_DIR [GROUPS] [OBJECTS_PER_GROUP]}
groups=${3:-8}
per_group=${4:-12000}
mkdir -p "$out"
python3 - "$groups" "$per_group" > "$out/bench.json" <<'PY'
import json, sys
groups, per_group = int(sys.argv[1]), int(sys.argv[2])
def f(i, k):  # a float that is exact in 32 bits
    return float(((i * 37 + k * 101) % 40000) / 8.0 - 2500.0)
out = {"$format": "streamer", "groups": []}
for g in range(groups):
    chunks = [{"id": "GrpH", "data": "bench group %d" % g}]
    if g == 0:
        chunks.insert(0, {"id": "Head", "data": "rebyte_bench streamer map"})
    for i in range(per_group):
        kind = i % 8
        x, y, z = f(i, 1), f(i, 2), f(i, 3) / 100.0
        if kind < 5:
            c = {"id": "_Obj", "modelId": 1000 + i % 18000, "x": x, "y": y, "z": z,
                 "rotX": 0.0, "rotY": 0.0, "rotZ": float(i % 360)}
            if kind == 1: c["streamDistance"] = 300.0
            if kind == 2: c.update({"streamDistance": 500.0, "drawDistance": 400.0})
        elif kind == 5:
            c = {"id": "Pckp", "modelId": 1240 + i % 3, "type": 2, "x": x, "y": y, "z": z}
        elif kind == 6:
            c = {"id": "RChk", "type": i % 2, "x": x, "y": y, "z": z, "nextX": y, "nextY": x, "nextZ": z}
        else:
            c = {"id": "TxtL", "x": x, "y": y, "z": z, "testLineOfSight": bool(i % 2),
                 "streamDistance": 30.0, "text": "label %d" % i}
        chunks.append(c)
    out["groups"].append({"chunks": chunks})
out["eof"] = {"id": "_EOF"}
json.dump(out, sys.stdout)
PY
"$rebyte" build "$out/bench.json" -o "$out/bench.map"
rm "$out/bench.json"
ls -l "$out/bench.map"
