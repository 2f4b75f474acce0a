#!/bin/sh
# The public test world: real files from public repositories that the project never ships.
# Each SET.tsv here lists files by the repository they come from and their git blob id (the
# columns of the corpus MANIFESTs); this script extracts them from fetched mirrors into
# $REBYTE_PUBLIC/SET/ and checks each file's SHA-1. See tests/public/README.md.
#
#   gather.sh [SET...]        extract (default: every *.tsv beside this script)
#   gather.sh --add SET OWNER/REPO PATH...   append entries, taken from the mirror's HEAD
#                                            (COMMIT:PATH takes a file the history has left)
#
# Mirrors: $REBYTE_MIRRORS (default /work/.mirror), one folder per repository named
# OWNER+REPO holding the git directory at repo/ or repo/.git (what the fetch tool leaves).
# Destination: $REBYTE_PUBLIC (default $REBYTE_SHARED/public, REBYTE_SHARED default ../shared).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mirrors=${REBYTE_MIRRORS:-/work/.mirror}
shared=${REBYTE_SHARED:-$here/../../../shared}
public=${REBYTE_PUBLIC:-$shared/public}

git_dir_of() { # OWNER/REPO -> its git directory, or nothing
    base="$mirrors/$(printf '%s' "$1" | tr / +)"
    for d in "$base/repo/.git" "$base/repo"; do
        [ -f "$d/HEAD" ] && { printf '%s\n' "$d"; return 0; }
    done
    return 1
}

add_entries() { # SET OWNER/REPO PATH...
    set_name=$1 repo=$2
    shift 2
    list="$here/$set_name.tsv"
    gd=$(git_dir_of "$repo") || { echo "gather: no mirror of $repo under $mirrors (fetch it first)" >&2; exit 3; }
    [ -f "$list" ] || printf 'file\tsha1\tsource_repo\tsource_path\tgit_blob\tsize\n' > "$list"
    for spec in "$@"; do
        rev=HEAD path=$spec
        if printf '%s' "${spec%%:*}" | grep -qxE '[0-9a-f]{40}'; then rev=${spec%%:*} path=${spec#*:}; fi
        blob=$(git --git-dir="$gd" rev-parse "$rev:$path") || { echo "gather: $repo has no $path at $rev" >&2; exit 2; }
        name="$(printf '%.8s' "$blob")_$(basename "$path")"
        if grep -q "^$name	" "$list"; then continue; fi
        sha1=$(git --git-dir="$gd" cat-file blob "$blob" | sha1sum | cut -d' ' -f1)
        size=$(git --git-dir="$gd" cat-file -s "$blob")
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$sha1" "$repo" "$path" "$blob" "$size" >> "$list"
    done
}

extract_set() { # SET: prints "SET: N extracted, M already there, K without a mirror, B bad"
    set_name=$1 list="$here/$1.tsv" dest="$public/$1"
    mkdir -p "$dest"
    got=0 had=0 missing=0 bad=0
    tab=$(printf '\t')
    while IFS=$tab read -r name sha1 repo path blob size; do
        [ "$name" = file ] && continue
        out="$dest/$name"
        if [ -f "$out" ] && [ "$(sha1sum < "$out" | cut -d' ' -f1)" = "$sha1" ]; then had=$((had + 1)); continue; fi
        gd=$(git_dir_of "$repo") || { missing=$((missing + 1)); continue; }
        if git --git-dir="$gd" cat-file blob "$blob" > "$out.part" 2>/dev/null &&
           [ "$(sha1sum < "$out.part" | cut -d' ' -f1)" = "$sha1" ]; then
            mv "$out.part" "$out"; got=$((got + 1))
        else
            rm -f "$out.part"; bad=$((bad + 1)); echo "gather: $set_name/$name: blob $blob of $repo missing or not $sha1" >&2
        fi
    done < "$list"
    echo "$set_name: $got extracted, $had already there, $missing without a mirror, $bad bad"
}

if [ "${1:-}" = --add ]; then
    [ $# -ge 4 ] || { echo "usage: gather.sh --add SET OWNER/REPO PATH..." >&2; exit 64; }
    shift
    add_entries "$@"
    exit 0
fi
if [ $# -eq 0 ]; then
    for l in "$here"/*.tsv; do [ -f "$l" ] && set -- "$@" "$(basename "$l" .tsv)"; done
fi
for s in "$@"; do
    [ -f "$here/$s.tsv" ] || { echo "gather: no list $here/$s.tsv" >&2; exit 2; }
    extract_set "$s"
done
