#!/bin/sh
# Every GBX file of the corpus: binary -> text -> binary gives the same bytes (compared with
# cmp, outside the tool; the second conversion runs with --no-check so the tool's own check
# proves nothing here); the text file has the format byte 'T' where the binary one has 'B';
# and each text file is itself read and written back exactly (`verify` on the text files).
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
mkdir "$tmp/text"
total=0 exact=0 bin_bytes=0 text_bytes=0
for f in "$corpus"/*; do
    case "$f" in *.tsv|*.md) continue ;; esac
    total=$((total + 1))
    name=$(basename "$f")
    t="$tmp/text/$name"
    if ! "$rebyte" convert --to text "$f" -o "$t" 2>"$tmp/err"; then
        echo "FAIL to text $name: $(head -c 400 "$tmp/err")"; continue
    fi
    if [ "$(head -c 6 "$t" | tail -c 1)" != T ] || [ "$(head -c 6 "$f" | tail -c 1)" != B ]; then
        echo "FAIL $name: the format byte is not B in the binary and T in the text file"; continue
    fi
    if ! "$rebyte" convert --to binary --no-check --source "$f" "$t" -o "$tmp/back" 2>"$tmp/err"; then
        echo "FAIL to binary $name: $(head -c 400 "$tmp/err")"; continue
    fi
    if ! cmp -s "$f" "$tmp/back"; then
        echo "FAIL $name: binary -> text -> binary differs: $(cmp "$f" "$tmp/back" 2>&1 | head -1)"; continue
    fi
    exact=$((exact + 1))
    bin_bytes=$((bin_bytes + $(wc -c < "$f")))
    text_bytes=$((text_bytes + $(wc -c < "$t")))
done
echo "binary -> text -> binary: $exact/$total exact ($bin_bytes bytes of binary, $text_bytes of text)"
[ "$exact" = "$total" ] || exit 1
# text -> model -> text: the text files are read and written back byte for byte
"$rebyte" verify -q "$tmp/text" > "$tmp/verify" 2>&1
tail -1 "$tmp/verify"
grep -q "^$total/$total exact" "$tmp/verify" || { echo "FAIL: not every text file verifies"; exit 1; }
