#!/bin/sh
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer (leak checks included)
# in a folder of its own and runs the unit tests, the corpus round trip and the mutation suite
# under it. Any finding makes the run fail.
#
# What keeps it short (tests/README.md "Quick and long"): the build is -O1 with line tables
# only (-g1), not -O0 with full debug information: half as much CPU again to build, then about
# half the CPU where the sanitized code is the work (the sanitizers' own advice for tests, the
# same checks); and the steps go in two lanes at once, each to a log of its own, printed when
# both are done: the project's samples, the patch engine and the map edits on one, the corpus
# round trip, its mutations and the parallel lists on the other. A failure fails the run; a
# step over a whole folder that fails is run again file by file (verify) or case by case
# (test_mutation), so the log names the file a sanitizer stopped on.
# Usage: sanitize.sh BUILD_FOLDER
set -eu
src=${REBYTE_SOURCE:?}
out=$1
shared=${REBYTE_SHARED:-$src/../shared}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# CMAKE_BUILD_TYPE=None: only these flags (asserts kept, no -DNDEBUG)
cmake -S "$src" -B "$out" -DREBYTE_SANITIZE=ON -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="-O1 -g1" \
    -DREBYTE_SHARED="$shared" >/dev/null
# only what runs below: the library's objects, the CLI and the five test programs (not the static
# and shared libraries, the benchmark or the other test programs: 50 of the 226 compilations)
cmake --build "$out" -j2 --target rebyte test_archive test_streamer test_apply test_api test_mutation >/dev/null
rebyte=$out/rebyte

# The project's own samples, every format; the patch engine; the edits of the corpus's maps.
samples_lane() {
    "$out/tests/test_archive"
    # formats without a corpus: fixtures made by the project, every mutation of them, the samples
    "$out/tests/test_streamer" "$src/tests/streamer/fixtures"
    REBYTE="$rebyte" REBYTE_SOURCE="$src" sh "$src/tests/streamer/samples.sh"
    # the patch engine: both apply paths on every sample, and the command line around it
    "$out/tests/test_apply" "$src"
    REBYTE="$rebyte" REBYTE_SOURCE="$src" sh "$src/tests/patch/patch_engine.sh"
    # game rules, derived copies, in-step lists and race recordings
    REBYTE="$rebyte" REBYTE_SOURCE="$src" REBYTE_SHARED="$shared" sh "$src/tests/engine/game_rules.sh"
    "$out/tests/test_api" "$src/samples/gbx/sample.Map.Gbx"
    for folder in "$src"/samples/*/; do
        mutate "$folder" 10
    done
    if command -v python3 >/dev/null 2>&1; then
        python3 "$src/tests/gbx/header_copies.py" "$rebyte" "$src/samples/gbx/sample.Map.Gbx" "$shared/corpus/gbx"
    fi
}

# Every corpus file read, written back and compared, plain and re-encoded; the files up to 300 kB
# damaged (under the sanitizers every parse is several times slower); the maps' parallel lists.
corpus_lane() {
    if [ ! -d "$shared/corpus" ]; then
        echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); ran the unit tests only"
        return 0
    fi
    folders=$(ls -d "$shared"/corpus/*/)
    # shellcheck disable=SC2086 # one argument per folder (the shared folder's paths have no spaces)
    verify_each -q $folders
    # shellcheck disable=SC2086
    verify_each "-q --reencode" $folders
    for folder in $folders; do
        mutate "$folder" 3 300000
    done
    if command -v python3 >/dev/null 2>&1; then
        python3 "$src/tests/gbx/parallel.py" "$rebyte" "$src/samples/gbx/sample.Map.Gbx" "$shared/corpus/gbx"
    fi
}

# verify_each "OPTIONS" FOLDER...: every file of the folders in one process; when it fails, each
# file alone, so a sanitizer's abort is put on its file.
verify_each() {
    options=$1
    shift
    # shellcheck disable=SC2086 # the options are words
    "$rebyte" verify $options "$@" && return 0
    echo "verify $options failed; each file alone:"
    for file in $(find "$@" -type f ! -name MANIFEST.tsv | sort); do
        # shellcheck disable=SC2086
        "$rebyte" verify $options "$file" >/dev/null 2>&1 || echo "FAILED: verify $options $file"
    done
    return 1
}

# mutate FOLDER ARGS...: the mutation suite; when it fails, again on one thread naming each case
# before it is run, so the last case printed before a sanitizer's abort is the one at fault.
mutate() {
    "$out/tests/test_mutation" "$@" && return 0
    trace=$(mktemp "$out/mutation_trace.XXXXXX") # the two lanes may both be here
    echo "test_mutation $* failed; again one case at a time ($trace):"
    REBYTE_TEST_JOBS=1 REBYTE_MUTATION_TRACE=1 "$out/tests/test_mutation" "$@" >"$trace" 2>&1 || true
    grep "^case " "$trace" | tail -1 | sed 's/^/last /'
    grep -v "^case " "$trace" | tail -60
    return 1
}

# Each lane in a subshell of its own (set -e there too: its first failing step ends it), run at
# once; the logs are printed in a fixed order whatever finished first.
( set -e; samples_lane ) >"$out/samples_lane.log" 2>&1 &
samples_pid=$!
( set -e; corpus_lane ) >"$out/corpus_lane.log" 2>&1 &
corpus_pid=$!
failed=""
wait "$samples_pid" || failed="$failed samples_lane"
wait "$corpus_pid" || failed="$failed corpus_lane"
for lane in samples_lane corpus_lane; do
    echo "---- $lane ($out/$lane.log)"
    cat "$out/$lane.log"
done
if [ -n "$failed" ]; then
    echo "sanitized run: findings or failures in:$failed"
    exit 1
fi
echo "sanitized run: no findings"
