#!/bin/sh
# The shared library exports the public API and nothing else: the functions include/rebyte.h
# declares (RB_API) are exactly the ones `nm -D --defined-only` lists.
# Usage: exports.sh LIBREBYTE.so
. "$(dirname "$0")/../lib.sh"
lib=$1
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found, the exports cannot be listed"; exit 77; }
nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort >"$tmp/exported"
sed -n 's/^RB_API .*[ *]\(rb_[a-z_0-9]*\)(.*/\1/p' "$src/include/rebyte.h" | sort >"$tmp/declared"
if ! cmp -s "$tmp/exported" "$tmp/declared"; then
    echo "FAIL: exported (<) and declared (>) differ:"
    diff "$tmp/exported" "$tmp/declared"
    exit 1
fi
echo "exports: $(wc -l <"$tmp/declared") functions, the public API exactly"
