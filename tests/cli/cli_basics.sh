#!/bin/sh
# The command line's contract: help, usage errors, exit codes, atomic output, untouched input.
. "$(dirname "$0")/../lib.sh"
check() { # check DESCRIPTION EXPECTED_EXIT command...
    desc=$1 want=$2; shift 2
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"; got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $desc: exit $got, expected $want"; sed 's/^/    /' "$tmp/stderr" | head -5; fails=$((fails + 1))
    else
        echo "ok   $desc"
    fi
}
sample=$src/samples/gbx/sample.Map.Gbx
check "--help succeeds" 0 "$rebyte" --help
grep -q "rebyte verify" "$tmp/stdout" || { echo "FAIL --help lists commands"; fails=$((fails + 1)); }
for c in info verify rewrite dump build apply diff json-patch; do
    check "$c --help" 0 "$rebyte" $c --help
done
check "no arguments is a usage error" 64 "$rebyte"
check "unknown command" 64 "$rebyte" frobnicate
check "rewrite without -o" 64 "$rebyte" rewrite "$sample"
check "missing file is an I/O error" 3 "$rebyte" info "$tmp/does-not-exist.Gbx"
printf 'not a game file' > "$tmp/junk.bin"
check "unknown format is bad input" 2 "$rebyte" info "$tmp/junk.bin"
check "sample map info" 0 "$rebyte" info "$sample"
check "sample map verify" 0 "$rebyte" verify "$sample"
# A truncated file: clean error naming an offset, and no output file.
head -c 60 "$sample" > "$tmp/truncated.Gbx"
check "truncated file is bad input" 2 "$rebyte" rewrite "$tmp/truncated.Gbx" -o "$tmp/never.Gbx"
grep -q '@0x' "$tmp/stderr" || { echo "FAIL error names an offset: $(cat "$tmp/stderr")"; fails=$((fails + 1)); }
[ ! -e "$tmp/never.Gbx" ] || { echo "FAIL partial output written"; fails=$((fails + 1)); }
ls "$tmp" | grep -q rebyte- && { echo "FAIL temporary file left behind"; fails=$((fails + 1)); }
# verify reports a difference: flip the last byte of an uncompressed copy's tail
check "verify --json on a folder" 0 "$rebyte" verify --json "$src/samples/gbx"
grep -q '"status":"exact"' "$tmp/stdout" || { echo "FAIL verify --json status"; fails=$((fails + 1)); }
tail -1 "$tmp/stdout" | grep -q '"summary":true' || { echo "FAIL verify --json summary line"; fails=$((fails + 1)); }
# limits: hitting one names it; REBYTE_LIMITS raises or lowers it
REBYTE_LIMITS=max_decompressed_size=10 "$rebyte" info "$sample" >/dev/null 2>"$tmp/stderr"
[ $? -eq 2 ] && grep -q "max_decompressed_size" "$tmp/stderr" || { echo "FAIL decompressed-size limit: $(cat "$tmp/stderr")"; fails=$((fails + 1)); }
# inside a GBX body a limit makes the typed parse keep the rest opaque (still exact), with a note
REBYTE_LIMITS=max_depth=3 "$rebyte" verify "$sample" >"$tmp/stdout" 2>&1
[ $? -eq 0 ] && grep -q "limit max_depth" "$tmp/stdout" || { echo "FAIL depth limit: $(cat "$tmp/stdout")"; fails=$((fails + 1)); }
REBYTE_LIMITS=max_count=2 "$rebyte" verify "$sample" >"$tmp/stdout" 2>&1
[ $? -eq 0 ] && grep -q "max_count" "$tmp/stdout" || { echo "FAIL count limit: $(cat "$tmp/stdout")"; fails=$((fails + 1)); }
# verify -q leaves out the exact files without notes, and lists the ones whose deviations were
# kept (the summary says "listed above"): the streamer fixtures keep stale checksums
"$rebyte" verify -q "$src/tests/streamer/fixtures" >"$tmp/stdout" 2>&1
grep -q "with notes (deviations kept, listed above)" "$tmp/stdout" && grep -q "note: .*checksum" "$tmp/stdout" ||
    { echo "FAIL verify -q lists no notes: $(cat "$tmp/stdout")"; fails=$((fails + 1)); }
[ "$(grep -c '^exact' "$tmp/stdout")" -eq "$(grep -c 'with notes' "$tmp/stdout")" ] ||
    { echo "FAIL verify -q shows an exact file without notes: $(cat "$tmp/stdout")"; fails=$((fails + 1)); }
# info names the environment a map stores as a collection number (26: TM2020's Stadium)
"$rebyte" info --json "$sample" >"$tmp/stdout" 2>&1
grep -q '"environment":"Stadium","environmentId":26' "$tmp/stdout" ||
    { echo "FAIL info environment name: $(cat "$tmp/stdout")"; fails=$((fails + 1)); }
# `-` is stdin wherever a command reads a file (the usage says so): each command given `-` does
# what it does with the file's name (verify used to report "1 not found")
patch=$src/samples/gbx/rename-and-retime.patch.json
stdin_same() { # DESCRIPTION command-with-FILE-as-{}...: stdout with - on stdin equals stdout with the name
    desc=$1; shift
    with_name=$(for a in "$@"; do [ "$a" = "{}" ] && printf '%s\n' "$sample" || printf '%s\n' "$a"; done)
    with_dash=$(for a in "$@"; do [ "$a" = "{}" ] && printf '%s\n' - || printf '%s\n' "$a"; done)
    printf '%s\n' "$with_name" | tr '\n' '\0' | xargs -0 "$rebyte" >"$tmp/named" 2>/dev/null; named=$?
    printf '%s\n' "$with_dash" | tr '\n' '\0' | xargs -0 sh -c '"$0" "$@" <"'"$sample"'"' "$rebyte" >"$tmp/dashed" 2>/dev/null
    dashed=$?
    sed "s#$sample#-#g" "$tmp/named" >"$tmp/named.sub"
    [ "$named" -eq "$dashed" ] && [ -s "$tmp/dashed" ] && cmp -s "$tmp/named.sub" "$tmp/dashed" ||
        { echo "FAIL $desc: - (exit $dashed) is not the file (exit $named)"; diff "$tmp/named.sub" "$tmp/dashed" | head -5;
          fails=$((fails + 1)); }
}
stdin_same "info -" info --json {}
stdin_same "verify -" verify {}
stdin_same "check -" check {}
stdin_same "dump -" dump --blobs=base64 {}
stdin_same "resolve -" resolve "$patch" {}
stdin_same "diff - FILE" diff {} "$src/samples/gbx/sample.Map.Gbx"
"$rebyte" rewrite - -o "$tmp/rewritten" <"$sample" 2>/dev/null && cmp -s "$tmp/rewritten" "$sample" ||
    { echo "FAIL rewrite -: not the file's bytes"; fails=$((fails + 1)); }
"$rebyte" apply "$patch" - -o "$tmp/from-stdin" <"$sample" 2>/dev/null &&
    "$rebyte" apply "$patch" "$sample" -o "$tmp/from-name" 2>/dev/null && cmp -s "$tmp/from-stdin" "$tmp/from-name" ||
    { echo "FAIL apply PATCH -: not what the file gives"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] && echo "cli basics: all passed"
[ "$fails" -eq 0 ]
