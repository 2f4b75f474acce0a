#!/bin/sh
# A vertex stream's count is derived from its arrays (docs/formats/gbx_item.md "Vertex streams"),
# over every corpus file with a CPlugVertexStream (0x09056000):
#   * the model holds the count once: a stream with arrays has no `count` field, one without
#     arrays has it, and every array of a stream has the same length;
#   * a vertex added to every array of the first stream (a copy of vertex 0) is written with the
#     new count: the output verifies and reads back (the reader takes `count` elements per array,
#     so the arrays' lengths read back are the count written) with one more element in each;
#   * a vertex added to only one array is refused, naming the array, and writes nothing.
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
require_python
streams=0 edited=0
for f in "$corpus"/*.Gbx; do
    name=$(basename "$f")
    "$rebyte" dump "$f" -o "$tmp/in.json" 2>/dev/null || continue
    grep -q '"0x09056000"' "$tmp/in.json" || continue
    python3 - "$tmp/in.json" "$tmp" >"$tmp/found" <<'PY' || { fail "$name: $(cat "$tmp/found")"; continue; }
import json, sys
model, out = json.load(open(sys.argv[1])), sys.argv[2]
streams, bad = [], []
def walk(x, path):
    if isinstance(x, dict):
        if x.get("id") == "0x09056000":
            arrays = x.get("arrays") or []
            lengths = {len(v) for a in arrays for v in a.values()}
            if arrays and "count" in x: bad.append(path + ": a count field beside the arrays")
            if not arrays and "count" not in x: bad.append(path + ": no arrays and no count")
            if len(lengths) > 1: bad.append(path + ": arrays of different lengths %s" % sorted(lengths))
            if arrays: streams.append((path, arrays))
        for k, v in x.items(): walk(v, path + "/" + k.replace("~", "~0").replace("/", "~1"))
    elif isinstance(x, list):
        for i, v in enumerate(x): walk(v, "%s/%d" % (path, i))
walk(model, "")
if bad: print("; ".join(bad)); sys.exit(1)
if not streams: sys.exit(0)
path, arrays = streams[0]
every = [{"op": "add", "path": "%s/arrays/%d/%s/-" % (path, i, k), "value": v[0]}
         for i, a in enumerate(arrays) for k, v in a.items()]
json.dump(every, open(out + "/every.json", "w"))
json.dump(every[:1], open(out + "/one.json", "w"))
print(len(streams), path, len(next(iter(arrays[0].values()))), len(every))
PY
    [ -s "$tmp/found" ] || continue
    # shellcheck disable=SC2046 # the four words of the line
    set -- $(cat "$tmp/found")
    streams=$((streams + $1)) path=$2 before=$3 arrays=$4
    case $name in *.Replay.Gbx | *.Ghost.Gbx) continue ;; esac # race recordings are never written changed
    "$rebyte" apply -q "$tmp/every.json" "$f" -o "$tmp/more.Gbx" || { fail "$name: a vertex added to every array"; continue; }
    "$rebyte" verify -q "$tmp/more.Gbx" >/dev/null || fail "$name: the edited file does not verify"
    "$rebyte" dump "$tmp/more.Gbx" -o "$tmp/more.json" || { fail "$name: re-read"; continue; }
    python3 - "$tmp/more.json" "$path" "$((before + 1))" <<'PY' || fail "$name: the arrays read back are not one longer"
import json, sys
x = json.load(open(sys.argv[1]))
for part in sys.argv[2].split("/")[1:]:
    part = part.replace("~1", "/").replace("~0", "~")
    x = x[int(part)] if isinstance(x, list) else x[part]
lengths = [len(v) for a in x["arrays"] for v in a.values()]
sys.exit(0 if "count" not in x and lengths and set(lengths) == {int(sys.argv[3])} else 1)
PY
    edited=$((edited + 1))
    if [ "$arrays" -gt 1 ]; then
        if "$rebyte" apply -q "$tmp/one.json" "$f" -o "$tmp/one.Gbx" 2>"$tmp/one.err"; then
            fail "$name: a vertex added to one array of $arrays was accepted"
        else
            grep -q "elements, the first array (the stream's count) has" "$tmp/one.err" ||
                fail "$name: refusal does not say which array: $(cat "$tmp/one.err")"
        fi
        [ ! -e "$tmp/one.Gbx" ] || fail "$name: output written for a refused patch"
        rm -f "$tmp/one.Gbx"
    fi
done
[ "$edited" -gt 0 ] || fail "no corpus file has a vertex stream with arrays"
finish "vertex stream counts ($streams streams, $edited files edited)"
