#!/bin/sh
# A text GBX value is read only in the spelling the writer gives it (docs/formats/gbx_text.md
# "Layout"): the fuzz harness found lines that parsed but were written back spelled
# otherwise (a string line with invalid UTF-8 the writer quotes, "59597.32e-39" for a float the
# writer spells 5.959732e-35, "8C" in a byte line the writer spells "8c"), so the file did not
# come back byte for byte. Each case below edits
# one line of the sample map's text form (made by `rebyte convert`) to another spelling of the
# same length (so every size around it still holds): the file must be refused, with an offset and
# a structure path (the sample's values are in header chunks, whose typed reading falls back to
# bytes, so the refusal names the chunk's data), by verify (the deferred read) and by convert
# --to binary, and nothing written.
. "$(dirname "$0")/../lib.sh"
export LC_ALL=C
t=$tmp/s.Map.Gbx
"$rebyte" convert --to text "$src/samples/gbx/sample.Map.Gbx" -o "$t" || { echo "FAIL convert to text"; exit 1; }
"$rebyte" verify -q "$t" >/dev/null || fail "the text form as written does not verify exactly"

cr=$(printf '\r')
# respell WHAT OLD NEW: the first line OLD becomes NEW
respell() {
    n=$(grep -a -n -x -F "$2$cr" "$t" | head -1 | cut -d: -f1)
    [ -n "$n" ] || { fail "$1: no line \"$2\" in the sample's text form"; return; }
    sed "${n}s/^.*\$/$3$cr/" "$t" > "$tmp/edited"
    [ "$(wc -c < "$tmp/edited")" -eq "$(wc -c < "$t")" ] || { fail "$1: the edit changed the length"; return; }
    "$rebyte" verify "$tmp/edited" > "$tmp/out" 2>&1
    rc=$?
    [ "$rc" -eq 2 ] || fail "$1: verify exit $rc, not 2 (refused): $(head -c 300 "$tmp/out")"
    grep -q 'ERROR .*edited: file @0x[0-9a-f]*: [a-zA-Z][^:]*: line "' "$tmp/out" || fail "$1: the refusal names no offset and path: $(head -c 300 "$tmp/out")"
    rm -f "$tmp/back"
    if "$rebyte" convert --to binary "$tmp/edited" -o "$tmp/back" 2>/dev/null || [ -e "$tmp/back" ]; then
        fail "$1: convert --to binary took it or left a file"
    fi
}
respell "a boolean as a zero-padded decimal" False 00000
respell "a float spelled with an exponent" 0.0 0e0
respell "an id in lower-case hex" 0000001A 0000001a
respell "a string with invalid UTF-8 unquoted" 'rebyte sample' "$(printf 'rebyte\377sample')"
bytes=$(grep -a -m1 -x "0x[0-9a-f]*[a-f][0-9a-f]*$cr" "$t" | tr -d '\r')
respell "a byte line with upper-case hex digits" "$bytes" "$(printf '%s' "$bytes" | sed 's/^0x//' | tr a-f A-F | sed 's/^/0x/')"
finish "text spellings other than the writer's are refused"
