#!/bin/sh
# Builds the project with ThreadSanitizer in a folder of its own and reads documents from
# several threads at once (test_concurrent_reads): the samples of every format and, when the
# corpus is there, its files up to 2 MB. Any data race TSan sees makes the run fail.
# Usage: tsan.sh BUILD_FOLDER
set -eu
src=${REBYTE_SOURCE:?}
out=$1
shared=${REBYTE_SHARED:-$src/../shared}
export TSAN_OPTIONS="halt_on_error=1 abort_on_error=1 second_deadlock_stack=1"
cmake -S "$src" -B "$out" -DREBYTE_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREBYTE_SHARED="$shared" >/dev/null
cmake --build "$out" -j2 --target test_concurrent_reads >/dev/null
files=$(find "$src/samples" -type f ! -name '*.json' ! -name '*.md' | sort)
if [ -d "$shared/corpus" ]; then
    files="$files $(find "$shared/corpus" -type f ! -name MANIFEST -size -2048k | sort)"
else
    echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); read the samples only"
fi
# shellcheck disable=SC2086 # one argument per file
"$out/tests/test_concurrent_reads" $files
