#!/bin/sh
# Safe writing: a full disk in the middle of an output leaves no partial file and no temporary
# file, and the input untouched; --in-place replaces the input only with a verified result and
# keeps a backup when asked. Usage: safe_write.sh FAULT_SHIM.so
set -u
rebyte=${REBYTE:?}
src=${REBYTE_SOURCE:?}
shim=$1
tmp=$(mktemp -d)
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
cp "$src/samples/gbx/sample.Map.Gbx" "$tmp/map.Gbx"
sum=$(cksum < "$tmp/map.Gbx")
patch=$src/samples/gbx/rename-and-retime.patch.json

# 1. the disk fills up after 100 bytes of the output (fault-injecting write)
LD_PRELOAD=$shim REBYTE_FAULT_AFTER=100 "$rebyte" rewrite "$tmp/map.Gbx" -o "$tmp/out.Gbx" 2>"$tmp/err"
[ $? -eq 3 ] || fail "rewrite on a full disk: exit status is not 3 (I/O error)"
grep -q "No space left" "$tmp/err" || fail "the error does not say the disk is full: $(cat "$tmp/err")"
[ ! -e "$tmp/out.Gbx" ] || fail "a partial output file was left"
ls "$tmp" | grep -q rebyte- && fail "a temporary file was left"
LD_PRELOAD=$shim REBYTE_FAULT_AFTER=100 "$rebyte" apply "$patch" "$tmp/map.Gbx" --in-place --backup 2>/dev/null
[ $? -eq 3 ] || fail "apply --in-place on a full disk: exit status is not 3"
[ "$(cksum < "$tmp/map.Gbx")" = "$sum" ] || fail "the input changed although the write failed"

# 2. a real small filesystem, when this machine lets us mount one
mkdir "$tmp/small"
if mount -t tmpfs -o size=8k tmpfs "$tmp/small" 2>/dev/null; then
    "$rebyte" build "$src/samples/gbx/sample.Map.json" -o "$tmp/small/fits.Gbx" || fail "a small file does not fit 8k"
    head -c 7000 /dev/zero > "$tmp/small/filler"
    "$rebyte" rewrite "$tmp/map.Gbx" -o "$tmp/small/out.Gbx" 2>/dev/null
    [ $? -eq 3 ] || fail "rewrite onto a full tmpfs: exit status is not 3"
    [ ! -e "$tmp/small/out.Gbx" ] || fail "partial output on the full tmpfs"
    ls "$tmp/small" | grep -q rebyte- && fail "temporary file left on the full tmpfs"
else
    echo "note: cannot mount a tmpfs here (not root); the fault-injecting write covered the full disk"
fi

# 3. --in-place with --backup: the input is replaced by the verified result, the original kept
"$rebyte" apply -q "$patch" "$tmp/map.Gbx" --in-place --backup || fail "apply --in-place"
[ "$(cksum < "$tmp/map.Gbx.bak")" = "$sum" ] || fail "the backup is not the original"
"$rebyte" info --json "$tmp/map.Gbx" | grep -q 'rebyte sample (retimed)' || fail "in-place result not patched"
# 4. a patch that fails leaves the file alone
echo '[{"op":"replace","path":"/nope","value":1}]' > "$tmp/bad.json"
cp "$tmp/map.Gbx" "$tmp/before.Gbx"
"$rebyte" apply "$tmp/bad.json" "$tmp/map.Gbx" --in-place 2>/dev/null && fail "a failing patch succeeded"
cmp -s "$tmp/map.Gbx" "$tmp/before.Gbx" || fail "a failing patch changed the file"
[ "$fails" -eq 0 ] && echo "safe writes: all passed"
[ "$fails" -eq 0 ]
