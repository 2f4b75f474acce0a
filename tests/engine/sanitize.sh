#!/bin/sh
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer (leak checks included)
# in a folder of its own and runs the unit tests, the corpus round trip and the mutation suite
# under it. Any finding makes the run fail.
# Usage: sanitize.sh BUILD_FOLDER
set -eu
src=${REBYTE_SOURCE:?}
out=$1
shared=${REBYTE_SHARED:-$src/../shared}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cmake -S "$src" -B "$out" -DREBYTE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DREBYTE_SHARED="$shared" >/dev/null
# only what runs below: the library's objects, the CLI and the five test programs (not the static
# and shared libraries, the benchmark or the other test programs: 50 of the 226 compilations)
cmake --build "$out" -j2 --target rebyte test_archive test_streamer test_apply test_api test_mutation >/dev/null
"$out/tests/test_archive"
# formats without a corpus: fixtures made by the project, every mutation of them, the samples
"$out/tests/test_streamer" "$src/tests/streamer/fixtures"
REBYTE="$out/rebyte" REBYTE_SOURCE="$src" sh "$src/tests/streamer/samples.sh"
# the project's own samples, every format
# the patch engine: both apply paths on every sample, and the command line around it
"$out/tests/test_apply" "$src"
REBYTE="$out/rebyte" REBYTE_SOURCE="$src" sh "$src/tests/patch/patch_engine.sh"
# game rules, derived copies, in-step lists and race recordings
REBYTE="$out/rebyte" REBYTE_SOURCE="$src" REBYTE_SHARED="$shared" sh "$src/tests/engine/game_rules.sh"
"$out/tests/test_api" "$src/samples/gbx/sample.Map.Gbx"
if command -v python3 >/dev/null 2>&1; then
    python3 "$src/tests/gbx/header_copies.py" "$out/rebyte" "$src/samples/gbx/sample.Map.Gbx" "$shared/corpus/gbx"
    python3 "$src/tests/gbx/parallel.py" "$out/rebyte" "$src/samples/gbx/sample.Map.Gbx" "$shared/corpus/gbx"
fi
for folder in "$src"/samples/*/; do
    "$out/tests/test_mutation" "$folder" 10
done
if [ -d "$shared/corpus" ]; then
    for folder in "$shared"/corpus/*/; do
        "$out/rebyte" verify -q "$folder"
        "$out/rebyte" verify -q --reencode "$folder"
        # under the sanitizers every parse is ~10x slower: files up to 300 kB keep the run short
        "$out/tests/test_mutation" "$folder" 3 300000
    done
else
    echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); ran the unit tests only"
fi
echo "sanitized run: no findings"
