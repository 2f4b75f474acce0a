#!/bin/sh
# Text GBX on the sample map (samples/gbx/sample.Map.Gbx, made by `rebyte build`):
# - the text file keeps the binary header up to the format byte ('T' there) and then has one
#   value per CR LF line, spelled as docs/formats/gbx_text.md says (expectations below come
#   from the sample's JSON model and those rules, not from the tool's output);
# - text -> binary gives the sample's bytes back (cmp), and text -> model -> text is exact;
# - strings with CR LF, a lone LF, quotes, a leading "0x" and invalid UTF-8 are quoted lines
#   and come back exactly;
# - a same-length edit in the text file reaches the binary file; a patch applied to the text
#   file gives what it gives on the binary file; a length-changing hand edit is refused with an
#   error (sizes count text bytes), nothing written;
# - every truncation and a spread of byte changes of the text file fail cleanly (no crash).
. "$(dirname "$0")/../lib.sh"
here=$src/tests/gbx_text
sample=$src/samples/gbx/sample.Map.Gbx
fail() { echo "FAIL: $*"; exit 1; }
has_line() { grep -a -q -x -F "$(printf '%s\r' "$2")" "$1"; }

t=$tmp/s.Map.txt.Gbx
"$rebyte" convert --to text "$sample" -o "$t" || fail "convert to text"

# binary header: GBX, version 6 (u16), then 'T' where the sample has 'B', then U C R
[ "$(head -c 9 "$t" | od -An -c | tr -d ' \n')" = 'GBX006\0TUCR' ] || fail "binary header up to the format byte"
[ "$(head -c 6 "$sample" | tail -c 1)" = B ] || fail "the sample is not binary"
# the first line after the binary header is the class id in hex
[ "$(tail -c +10 "$t" | head -c 10 | od -An -c | tr -d ' \n')" = '03043000\r\n' ] || fail "class id line"
# every line ends with CR LF (no string of the sample holds CR or LF): as many CR as LF, last two bytes CR LF
crs=$(tail -c +10 "$t" | tr -cd '\r' | wc -c)
lfs=$(tail -c +10 "$t" | tr -cd '\n' | wc -c)
[ "$crs" = "$lfs" ] && [ "$crs" -gt 100 ] || fail "lines are not CR LF lines ($crs CR, $lfs LF)"
[ "$(tail -c 2 "$t" | od -An -c | tr -d ' \n')" = '\r\n' ] || fail "the last line lacks its CR LF"
# values of the model (see `rebyte dump`): chunk ids and id numbers in hex, ints decimal,
# booleans True/False, floats in their shortest spelling, strings as the line itself
for line in 03043002 03043003 30000 45000 False 'rebyte sample' rebyteSampleMapUid0000000001 0000001A \
    40000000 48x48Day 0.0 'TrackMania\TM_Race' TMStadium FACADE01 534B4950 StadiumRoadMainStartLine; do
    has_line "$t" "$line" || fail "no line \"$line\""
done
# the pack mask (16 bytes) is a byte line
grep -a -q -x "$(printf '0x[0-9a-f]\{32\}\r')" "$t" || fail "no 16-byte hex line (pack mask)"
# the body: its binary content size (949, see the dump's body.$stream.content_size) and the
# original LZO stream as a byte line whose length is the sample's compressed size
compressed=$(($(wc -c < "$sample") - 312))  # the stream runs from @312 (dump: body.$stream.original) to the end
has_line "$t" 949 || fail "no line with the body's decoded size"
grep -a -q -x "$(printf '0x[0-9a-f]\{%d\}\r' $((2 * compressed)))" "$t" || fail "no byte line of the $compressed-byte LZO stream"

"$rebyte" convert --to binary "$t" -o "$tmp/back.Gbx" || fail "convert back"
cmp "$sample" "$tmp/back.Gbx" || fail "text -> binary differs from the sample"
"$rebyte" verify "$t" >/dev/null || fail "the text file does not verify (text -> model -> text)"
"$rebyte" info "$t" >/dev/null || fail "info on the text file"
"$rebyte" convert --to text "$t" -o "$tmp/again.txt" && cmp "$t" "$tmp/again.txt" || fail "text -> text is not exact"

# strings the plain spelling cannot carry
"$rebyte" apply "$here/strings.patch.json" "$sample" -o "$tmp/strings.Gbx" >/dev/null 2>&1 || fail "apply strings patch"
"$rebyte" convert --to text "$tmp/strings.Gbx" -o "$tmp/strings.txt" || fail "convert strings to text"
has_line "$tmp/strings.txt" '"two\r\nlines\nand a lone LF"' || fail "CR LF and LF are not escaped in a quoted line"
has_line "$tmp/strings.txt" '"0x1234"' || fail "a string starting with 0x is not quoted"
has_line "$tmp/strings.txt" '"A\xffB"' || fail "invalid UTF-8 is not escaped"
has_line "$tmp/strings.txt" '"\"quoted\" \\ back\tslash"' || fail "quotes, backslash and tab are not escaped"
"$rebyte" convert --to binary "$tmp/strings.txt" -o "$tmp/strings.back" || fail "convert strings back"
cmp "$tmp/strings.Gbx" "$tmp/strings.back" || fail "strings did not come back exactly"

# a same-length edit: the header's authorTime 30000 -> 29000 (its first line "30000")
sed '0,/^30000\r$/s//29000\r/' "$t" > "$tmp/edit.txt"
"$rebyte" convert --to binary "$tmp/edit.txt" -o "$tmp/edit.Gbx" || fail "convert the edited text"
"$rebyte" dump "$tmp/edit.Gbx" -o "$tmp/edit.json" || fail "dump the edited map"
[ "$(grep -c '"authorTime": 29000' "$tmp/edit.json")" = 1 ] || fail "the edit did not reach the header's authorTime"
# a patch applied to the text file gives the bytes it gives on the binary file (the body was
# edited: its carried LZO stream is stale and is re-encoded on the way to binary)
patch=$src/samples/gbx/rename-and-retime.patch.json
"$rebyte" apply "$patch" "$t" -o "$tmp/renamed.txt" >/dev/null 2>&1 || fail "apply on the text file"
[ "$(head -c 6 "$tmp/renamed.txt" | tail -c 1)" = T ] || fail "apply on a text file did not write text"
"$rebyte" convert --to binary "$tmp/renamed.txt" -o "$tmp/renamed.Gbx" 2>/dev/null || fail "convert the patched text"
"$rebyte" apply "$patch" "$sample" -o "$tmp/renamed2.Gbx" >/dev/null 2>&1 || fail "apply on the binary file"
cmp "$tmp/renamed.Gbx" "$tmp/renamed2.Gbx" || fail "apply on text then convert differs from apply on binary"
# a length-changing edit without fixing the sizes: refused, nothing written
sed '0,/^rebyte sample\r$/s//rebyte sample!\r/' "$t" > "$tmp/bad.txt"
if "$rebyte" convert --to binary "$tmp/bad.txt" -o "$tmp/bad.Gbx" 2>"$tmp/bad.err"; then fail "a text file with a stale size was accepted"; fi
[ -s "$tmp/bad.err" ] && [ ! -e "$tmp/bad.Gbx" ] || fail "a refused conversion must say why and write nothing"

# malformed text: truncations and byte changes fail cleanly (exit 1 or 2) or convert (0)
size=$(wc -c < "$t")
i=1
while [ $i -le 40 ]; do
    n=$((size * i / 41))
    head -c $n "$t" > "$tmp/m"
    "$rebyte" convert --to binary --no-check "$tmp/m" -o "$tmp/m.out" >/dev/null 2>&1
    rc=$?
    [ $rc = 2 ] || fail "truncation to $n bytes: exit $rc (expected 2)"
    p=$((9 + (size - 10) * i / 41))
    for c in X 0 '"' ' '; do
        { head -c $p "$t"; printf '%s' "$c"; tail -c +$((p + 2)) "$t"; } > "$tmp/m"
        "$rebyte" convert --to binary --no-check "$tmp/m" -o "$tmp/m.out" >/dev/null 2>&1
        rc=$?
        [ $rc -le 2 ] || fail "byte $p changed to '$c': exit $rc"
    done
    i=$((i + 1))
done
echo "gbx text fixture: ok"
