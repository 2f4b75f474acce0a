#!/bin/sh
# The public test world (tests/public/README.md): every gathered file must come back byte-exact
# (also with re-encoded streams) and break no game rule; each kind keeps at most 2% of its bytes
# opaque (coverage.py) and the ghosts' entity records decode independently (entity_records.py).
# Sets not gathered are reported skipped.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rebyte=${REBYTE:-rebyte}
shared=${REBYTE_SHARED:-$here/../../../shared}
public=${REBYTE_PUBLIC:-$shared/public}
sh "$here/gather.sh" >/dev/null 2>&1 || true # extracts what the mirrors at hand hold
ran=0 failed=0
# check's messages go to a scratch file, never beside the gathered files (shared, read-only to others)
check_err=$(mktemp)
trap 'rm -f "$check_err"' EXIT
for list in "$here"/*.tsv; do
    set_name=$(basename "$list" .tsv)
    dir="$public/$set_name"
    listed=$(($(wc -l < "$list") - 1))
    present=$(find "$dir" -maxdepth 1 -type f ! -name '*.part' 2>/dev/null | wc -l)
    if [ "$present" -eq 0 ]; then
        echo "$set_name: skipped (0 of $listed files at $dir; fetch the mirrors, then tests/public/gather.sh)"
        continue
    fi
    ran=$((ran + 1))
    [ "$present" -lt "$listed" ] && echo "$set_name: only $present of $listed files present"
    "$rebyte" verify --reencode -q "$dir" || { echo "FAIL $set_name: verify"; failed=$((failed + 1)); }
    bad=0
    for f in "$dir"/*; do
        "$rebyte" check "$f" >/dev/null 2>"$check_err" || { bad=$((bad + 1)); head -3 "$check_err"; }
    done
    [ "$bad" -eq 0 ] || { echo "FAIL $set_name: check flags $bad file(s)"; failed=$((failed + 1)); }
    echo "$set_name: $present files verified and checked"
done
[ "$ran" -gt 0 ] || { echo "SKIP: no public set gathered under $public"; exit 77; }
# Typing coverage per kind of file: at most 2% of a kind's bytes opaque, no typed parse that stops.
python3 "$here/coverage.py" "$rebyte" "$public" || { echo "FAIL coverage"; failed=$((failed + 1)); }
# The entity records of the gathered ghosts and replays, decoded independently (tests/gbx_ghost).
records=""
for s in ghosts replays; do [ -d "$public/$s" ] && records="$records $public/$s"; done
if [ -n "$records" ]; then
    python3 "$here/../gbx_ghost/entity_records.py" "$rebyte" $records || { echo "FAIL entity records"; failed=$((failed + 1)); }
fi
[ "$failed" -eq 0 ]
