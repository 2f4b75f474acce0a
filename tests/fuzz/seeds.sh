#!/bin/sh
# Seeds for the reader harness: every file under samples/ (made by the project's own writers)
# that the registry detects as FORMAT, copied into OUT. Usage: seeds.sh REBYTE FORMAT OUT
# (REBYTE: the CLI; FORMAT: a name `rebyte formats` lists, or "all").
set -eu
[ $# -eq 3 ] || { echo "usage: $0 REBYTE FORMAT OUT" >&2; exit 64; }
rebyte=$1 format=$2 out=$3
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
n=0
for f in $(find "$here/samples" -type f ! -name '*.json' ! -name '*.md' | sort); do
  detected=$("$rebyte" info --json "$f" 2>/dev/null | sed -n 's/.*"format":"\([a-z0-9_-]*\)".*/\1/p')
  [ -n "$detected" ] || continue
  if [ "$format" = all ] || [ "$detected" = "$format" ]; then
    cp "$f" "$out/$detected-$(basename "$f")"
    n=$((n + 1))
  fi
done
echo "$n seeds for $format in $out"
[ "$n" -gt 0 ]
