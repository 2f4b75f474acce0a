#!/bin/sh
# Where outputs go: every command that writes a file writes into a FIFO (the reader gets
# the bytes, the FIFO stays a FIFO) and a character device, writes through a symlink (the file the
# link names gets the content and keeps its mode, the link stays), refuses a directory; two
# `apply --in-place --backup` runs keep the first original in FILE.bak and never take backups as
# inputs; a batch `apply --in-place` killed with SIGKILL leaves every file either original or fully
# patched, and nothing a later scan takes as an input.
. "$(dirname "$0")/../lib.sh"
sample=$src/samples/gbx/sample.Map.Gbx
json=$src/samples/gbx/sample.Map.json
patch=$src/samples/gbx/rename-and-retime.patch.json
COMMANDS="rewrite build apply downgrade-items convert dump"

# One writing command with its output at $2 (bounded in time: a bug must not hang the suite).
produce() {
    case $1 in
    rewrite) timeout 30 "$rebyte" rewrite "$sample" -o "$2" ;;
    build) timeout 30 "$rebyte" build "$json" -o "$2" ;;
    apply) timeout 30 "$rebyte" apply -q "$patch" "$sample" -o "$2" ;;
    downgrade-items) timeout 30 "$rebyte" downgrade-items -q "$sample" -o "$2" ;;
    convert) timeout 30 "$rebyte" convert --to text "$sample" -o "$2" ;;
    dump) timeout 30 "$rebyte" dump "$sample" -o "$2" ;;
    esac
}

# References: each command's output as a regular file.
mkdir "$tmp/ref"
for c in $COMMANDS; do
    produce "$c" "$tmp/ref/$c" >/dev/null 2>"$tmp/err" || fail "$c -o FILE: $(head -3 "$tmp/err")"
    [ -s "$tmp/ref/$c" ] || fail "$c -o FILE wrote nothing"
done

# Waits up to 5 s for a background process; kills it (and says so) if it is still running.
wait_bounded() {
    n=0
    while kill -0 "$1" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
    if kill -0 "$1" 2>/dev/null; then
        kill "$1" 2>/dev/null
        wait "$1" 2>/dev/null
        return 1
    fi
    wait "$1" 2>/dev/null
    return 0
}

# 1. -o FIFO: written into, not replaced.
for c in $COMMANDS; do
    rm -f "$tmp/fifo" "$tmp/got"
    mkfifo "$tmp/fifo" || { echo "note: mkfifo failed; FIFO cases skipped"; break; }
    timeout 30 cat "$tmp/fifo" > "$tmp/got" &
    reader=$!
    produce "$c" "$tmp/fifo" >/dev/null 2>"$tmp/err"
    rc=$?
    [ -p "$tmp/fifo" ] || fail "$c -o FIFO: the FIFO was replaced by a $(stat -c %F "$tmp/fifo" 2>/dev/null)"
    wait_bounded "$reader" || fail "$c -o FIFO: the reader was still waiting after the command ended"
    [ $rc -eq 0 ] || fail "$c -o FIFO: exit $rc: $(head -3 "$tmp/err")"
    cmp -s "$tmp/got" "$tmp/ref/$c" || fail "$c -o FIFO: the reader did not get exactly the output"
done
ls -A "$tmp" | grep -q 'rebyte-' && fail "-o FIFO: a temporary file was left"

# 2. -o a character device: a node of our own (like /dev/null, 1:3) when this machine lets us make
#    one; never the system's /dev nodes.
if mknod "$tmp/null" c 1 3 2>/dev/null && [ -c "$tmp/null" ] && printf x > "$tmp/null" 2>/dev/null; then
    ln -s null "$tmp/null.lnk"
    for c in $COMMANDS; do
        produce "$c" "$tmp/null" >/dev/null 2>"$tmp/err" || fail "$c -o DEVICE: $(head -3 "$tmp/err")"
        [ -c "$tmp/null" ] || fail "$c -o DEVICE: the device node was replaced"
        produce "$c" "$tmp/null.lnk" >/dev/null 2>"$tmp/err" || fail "$c -o LINK-TO-DEVICE: $(head -3 "$tmp/err")"
        [ -c "$tmp/null" ] && [ -L "$tmp/null.lnk" ] || fail "$c -o LINK-TO-DEVICE: the node or the link was replaced"
    done
    rm -f "$tmp/null" "$tmp/null.lnk"
else
    echo "note: cannot make a device node here (not root, or no CAP_MKNOD); character devices covered by test_write_strategy"
    rm -f "$tmp/null"
fi
# -o - is stdout; -o /dev/stdout into a pipe writes into the pipe. (Through a link of our own to
# /proc/self/fd/1, like /dev/stdout's: a writer that replaces links must not replace the system's.)
produce rewrite - 2>/dev/null | cmp -s - "$tmp/ref/rewrite" || fail "rewrite -o - is not the output on stdout"
if [ -e /proc/self/fd/1 ]; then
    ln -s /proc/self/fd/1 "$tmp/stdout"
    produce rewrite "$tmp/stdout" 2>/dev/null | cmp -s - "$tmp/ref/rewrite" || fail "rewrite -o /dev/stdout into a pipe"
    [ -L "$tmp/stdout" ] || fail "-o /dev/stdout: the link was replaced"
fi

# 3. -o a directory: refused, exit 3, the directory untouched.
mkdir "$tmp/adir"
produce rewrite "$tmp/adir" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] || fail "-o DIRECTORY: exit status is not 3"
grep -q "is a directory" "$tmp/err" || fail "-o DIRECTORY: the error does not say so: $(cat "$tmp/err")"
[ -d "$tmp/adir" ] && [ -z "$(ls -A "$tmp/adir")" ] || fail "-o DIRECTORY: the directory changed"

# 4. -o through a symlink (relative, into another folder, through a chain of two links): the file
#    the links name gets the output and keeps its mode; the links stay links.
new_link() {
    rm -rf "$tmp/real" "$tmp/links"
    mkdir "$tmp/real" "$tmp/links"
    printf 'old content' > "$tmp/real/out"
    chmod 640 "$tmp/real/out"
    ln -s ../real/out "$tmp/links/first.lnk"
    ln -s first.lnk "$tmp/links/out.lnk"
}
check_link() { # check_link WHAT REFERENCE
    [ -L "$tmp/links/out.lnk" ] && [ "$(readlink "$tmp/links/out.lnk")" = first.lnk ] || fail "$1: the link was replaced"
    [ -L "$tmp/links/first.lnk" ] && [ "$(readlink "$tmp/links/first.lnk")" = ../real/out ] ||
        fail "$1: the link's link was replaced"
    [ -f "$tmp/real/out" ] && [ ! -L "$tmp/real/out" ] || fail "$1: the target is gone"
    cmp -s "$tmp/real/out" "$2" || fail "$1: the target does not hold the output"
    [ "$(stat -c %a "$tmp/real/out")" = 640 ] || fail "$1: the target's mode was not kept ($(stat -c %a "$tmp/real/out"))"
    ls -A "$tmp/real" "$tmp/links" | grep -q 'rebyte-' && fail "$1: a temporary file was left"
}
for c in $COMMANDS; do
    new_link
    produce "$c" "$tmp/links/out.lnk" >/dev/null 2>"$tmp/err" || fail "$c -o LINK: $(head -3 "$tmp/err")"
    check_link "$c -o LINK" "$tmp/ref/$c"
done
# --in-place through a link: apply (with --backup: FILE.bak beside the name given, the original)
# and downgrade-items
new_link
cp "$sample" "$tmp/real/out"
produce apply "$tmp/ref/applied.Gbx" 2>/dev/null
"$rebyte" apply -q "$patch" "$tmp/links/out.lnk" --in-place --backup 2>"$tmp/err" || fail "apply --in-place LINK: $(head -3 "$tmp/err")"
check_link "apply --in-place LINK" "$tmp/ref/applied.Gbx"
cmp -s "$tmp/links/out.lnk.bak" "$sample" || fail "apply --in-place --backup LINK: the backup is not the original"
new_link
cp "$sample" "$tmp/real/out"
timeout 30 "$rebyte" downgrade-items -q "$tmp/links/out.lnk" --in-place 2>"$tmp/err" ||
    fail "downgrade-items --in-place LINK: $(head -3 "$tmp/err")"
check_link "downgrade-items --in-place LINK" "$tmp/ref/downgrade-items"
# a dangling link: the file it names is created
rm -rf "$tmp/real" "$tmp/links"
mkdir "$tmp/real" "$tmp/links"
ln -s ../real/new.Gbx "$tmp/links/new.lnk"
produce rewrite "$tmp/links/new.lnk" 2>/dev/null || fail "rewrite -o DANGLING-LINK failed"
[ -L "$tmp/links/new.lnk" ] && cmp -s "$tmp/real/new.Gbx" "$tmp/ref/rewrite" || fail "rewrite -o DANGLING-LINK: not written through"
# a hard link keeps the old content (documented: the rename gives the edited name a new file)
cp "$sample" "$tmp/real/hard.Gbx"
ln "$tmp/real/hard.Gbx" "$tmp/real/other-name.Gbx"
"$rebyte" apply -q "$patch" "$tmp/real/hard.Gbx" --in-place 2>/dev/null || fail "apply --in-place on a hard-linked file"
cmp -s "$tmp/real/other-name.Gbx" "$sample" || fail "a hard link to an edited file no longer holds the old content (docs/usage.md says it does)"

# 5. --backup twice: the first original is kept, no FILE.bak.bak, backups are not inputs.
cat > "$tmp/second.patch.json" <<'EOF'
[
  {"op": "replace", "path": "/body/chunks/[id=0x0304301F]/mapName", "value": "second edit"}
]
EOF
mkdir "$tmp/maps"
for i in 1 2 3 4 5; do cp "$sample" "$tmp/maps/m$i.Map.Gbx"; done
"$rebyte" apply "$patch" "$tmp/maps" --in-place --backup 2>"$tmp/err1" || fail "first --backup run: $(tail -3 "$tmp/err1")"
grep -q "5/5 files patched" "$tmp/err1" || fail "first --backup run: summary: $(tail -1 "$tmp/err1")"
"$rebyte" apply "$tmp/second.patch.json" "$tmp/maps" --in-place --backup 2>"$tmp/err2" ||
    fail "second --backup run: $(tail -3 "$tmp/err2")"
grep -q "rebyte: 5/5 files patched" "$tmp/err2" || fail "second --backup run took other files: $(tail -1 "$tmp/err2")"
[ "$(grep -c 'already exists: kept' "$tmp/err2")" -eq 5 ] || fail "second --backup run: no note for each kept backup"
for i in 1 2 3 4 5; do
    cmp -s "$tmp/maps/m$i.Map.Gbx.bak" "$sample" || fail "m$i.Map.Gbx.bak is not the original after two runs"
    "$rebyte" info --json "$tmp/maps/m$i.Map.Gbx" | grep -q 'second edit' || fail "m$i.Map.Gbx: second patch not applied"
done
ls -A "$tmp/maps" | grep -q '\.bak\.bak' && fail "a FILE.bak.bak was written"
[ "$(ls -A "$tmp/maps" | wc -l)" -eq 10 ] || fail "files other than the maps and their backups: $(ls -A "$tmp/maps")"
# a backup named on the command line is still an input
"$rebyte" verify "$tmp/maps/m1.Map.Gbx.bak" | grep -q "1/1 exact" || fail "a backup named explicitly is not taken"
# a scan skips backups and the writer's temporary files (a leftover of a killed run)
cp "$sample" "$tmp/maps/m1.Map.Gbx.rebyte-Ab12Cd"
head -c 100 "$sample" > "$tmp/maps/m2.Map.Gbx.bak.rebyte-Zz9876"
"$rebyte" verify "$tmp/maps" > "$tmp/out" 2>&1
grep -q "^5/5 exact, 0 differ, 0 errors" "$tmp/out" || fail "verify DIR took backups or temporary files: $(cat "$tmp/out")"
grep -q 'rebyte-\|\.bak' "$tmp/out" && fail "verify DIR lists a backup or a temporary file"

# 6. A batch --in-place killed with SIGKILL at different moments: each file is the original or the
#    fully patched map, each backup the original, and a scan takes no leftover. 200 copies: 40 are
#    patched in a few tens of milliseconds here, too fast for a kill to land in the middle.
count=200
patched_sum=$(cksum < "$tmp/ref/applied.Gbx" | cut -d' ' -f1,2)
original_sum=$(cksum < "$sample" | cut -d' ' -f1,2)
interrupted=0
round=0
for delay in 0.005 0.02 0.04 0.07 0.1 0.15 0.25 0.4; do
    round=$((round + 1))
    rm -rf "$tmp/batch"
    mkdir "$tmp/batch"
    i=0
    while [ $i -lt $count ]; do i=$((i + 1)); cp "$sample" "$tmp/batch/map$i.Map.Gbx"; done
    case $round in
    1 | 3 | 5 | 7) opts="--backup" ;;
    2 | 6) opts="-j 2" ;;
    *) opts="--backup -j 2" ;;
    esac
    "$rebyte" apply -q "$patch" "$tmp/batch" --in-place $opts 2>/dev/null &
    pid=$!
    sleep $delay
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    # every file: original or patched; every backup: the original
    cksum "$tmp/batch"/*.Map.Gbx | while read -r sum size name; do
        [ "$sum $size" = "$patched_sum" ] || [ "$sum $size" = "$original_sum" ] ||
            echo "FAIL kill after ${delay}s ($opts): $name is neither the original nor the patched map"
    done > "$tmp/bad"
    if ls "$tmp/batch" | grep -q '\.bak$'; then
        cksum "$tmp/batch"/*.bak | while read -r sum size name; do
            [ "$sum $size" = "$original_sum" ] || echo "FAIL kill after ${delay}s ($opts): $name is not the original"
        done >> "$tmp/bad"
    fi
    if [ -s "$tmp/bad" ]; then head -5 "$tmp/bad"; fails=$((fails + 1)); fi
    n_patched=$(cksum "$tmp/batch"/*.Map.Gbx | grep -c "^$patched_sum ")
    leftovers=$(ls -A "$tmp/batch" | grep -c 'rebyte-')
    [ "$n_patched" -gt 0 ] && [ "$n_patched" -lt $count ] && interrupted=$((interrupted + 1))
    echo "kill after ${delay}s ($opts): $n_patched/$count patched, $leftovers temporary file(s) left"
    # a later scan sees the maps only
    "$rebyte" verify -q "$tmp/batch" > "$tmp/out" 2>&1
    grep -q "^$count/$count exact, 0 differ, 0 errors" "$tmp/out" ||
        fail "kill after ${delay}s: verify DIR after the kill: $(tail -3 "$tmp/out")"
    grep -q 'rebyte-\|\.bak' "$tmp/out" && fail "kill after ${delay}s: verify DIR reports a leftover or a backup"
done
echo "note: $interrupted of $round kills landed in the middle of the batch"

[ "$fails" -eq 0 ] && echo "write targets: all passed"
[ "$fails" -eq 0 ]
