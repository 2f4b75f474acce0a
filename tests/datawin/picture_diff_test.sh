#!/bin/sh
# Pictures as pictures in diffs (docs/usage.md "Diffs"). On the sprite sample, every corpus
# data.win or every public one (the checks are picture_diff.py's, one python for the run): one
# sprite frame recoloured (its opaque pixels, same size) through `replace`; then
#  1. `rebyte diff` (pinned, by position) and `rebyte diff --by-identity` are one operation each,
#     a {"$png"} replace of that frame (no page, no base64 of it), at most 4x the size of the
#     frame's PNG, and apply of either to the original gives the edited file's bytes;
#  2. the identity diff applied to another build of the game (the original with another frame
#     grown onto a bigger page and a room renamed: other page bytes, other item coordinates)
#     puts exactly that frame's pixels there;
#  3. applied to a build whose sprite has another name, it is refused, naming the selector.
# Usage: picture_diff_test.sh sample|corpus|public
. "$(dirname "$0")/common.sh"
case "${1:-sample}" in
sample) files="$src/samples/datawin/sprites.win" ;;
corpus) require_corpus; files=$(ls "$corpus"/*.win) ;;
public)
    files=$(ls "$shared"/public/datawin/*.win 2>/dev/null)
    [ -n "$files" ] || { echo "SKIP: no public data.win in $shared/public/datawin"; exit 77; } ;;
*) echo "usage: picture_diff_test.sh sample|corpus|public" >&2; exit 64 ;;
esac
python3 "$(dirname "$0")/picture_diff.py" "$rebyte" "$tmp" $files
