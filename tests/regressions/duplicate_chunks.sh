#!/bin/sh
# Fuzz find (2026-11-22): a data.win with two STRG chunks (the second renamed from another chunk)
# parsed and then could not be written ("string reference to string 25, but STRG has 0
# strings"). Such a file must round-trip exactly (its chunks kept whole) or be refused.
. "$(dirname "$0")/../lib.sh"
"$rebyte" build "$src/samples/datawin/sample.json" -o "$tmp/a.win" || { echo "FAIL build"; exit 1; }
python3 - "$tmp/a.win" "$tmp/b.win" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
pos, last = 8, None
while pos + 8 <= len(data):              # find the last chunk and call it STRG too
    last = pos
    pos += 8 + struct.unpack_from("<I", data, pos + 4)[0]
assert data[last:last + 4] != b"STRG"
data = data[:last] + b"STRG" + struct.pack("<II", 4, 0)   # a second, empty string table
struct.pack_into("<I", data, 4, len(data) - 8)            # the FORM length
open(sys.argv[2], "wb").write(data)
PY
"$rebyte" verify "$tmp/b.win" > "$tmp/out" 2>&1
rc=$?
# a refusal must come from reading; a model that was read but cannot be written is the bug
if grep -q "output @" "$tmp/out" || { [ $rc -ne 0 ] && [ $rc -ne 2 ]; }; then
    echo "FAIL: $(cat "$tmp/out")"
    exit 1
fi
echo "duplicate chunks: $(head -1 "$tmp/out")"
