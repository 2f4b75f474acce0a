#!/bin/sh
# Fuzz find (2026-11-22): a data.win whose STRG pointer did not point at its string record parsed
# and then wrote back different bytes. Such a file must either come back exactly (STRG kept
# opaque) or be refused with the offset; never "differs".
. "$(dirname "$0")/../lib.sh"
"$rebyte" build "$src/samples/datawin/sample.json" -o "$tmp/a.win" || { echo "FAIL build"; exit 1; }
python3 - "$tmp/a.win" "$tmp/b.win" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.index(b"STRG") + 8 + 4          # chunk header, string count, first pointer
value = struct.unpack_from("<I", data, at)[0]
struct.pack_into("<I", data, at, value + 1)
open(sys.argv[2], "wb").write(data)
PY
"$rebyte" verify "$tmp/b.win" > "$tmp/out" 2>&1
rc=$?
case $rc in
0) grep -q "^exact" "$tmp/out" || { echo "FAIL: $(cat "$tmp/out")"; exit 1; } ;;
2) grep -q "does not point at its record" "$tmp/out" || { echo "FAIL message: $(cat "$tmp/out")"; exit 1; } ;;
*) echo "FAIL exit $rc: $(cat "$tmp/out")"; exit 1 ;;
esac
echo "stale pointers: exact or refused, as expected"
