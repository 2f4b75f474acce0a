#!/bin/sh
# Builds the project with ThreadSanitizer in a folder of its own and reads documents from
# several threads at once (test_concurrent_reads): the samples of every format and, when the
# corpus is there, one corpus file of each format (below). Any data race TSan sees makes the run
# fail.
#
# Why not every corpus file: under TSan a read runs 10-20x slower and every file is read by
# four threads twice, so the corpus files up to 2 MB took many minutes. A race is a property of
# the code paths a read takes, not of the file's size: one file of each format takes every
# shared path (the lazy expansion of tables and packed records under the document's lock, the
# stream digests and reports, the GBX chunk index and lookback ids, GROFF name tables, data.win
# code chains); the samples add the small formats and corner cases. A file missing from the
# corpus is skipped with a note.
# Usage: tsan.sh BUILD_FOLDER
set -eu
src=${REBYTE_SOURCE:?}
out=$1
shared=${REBYTE_SHARED:-$src/../shared}
export TSAN_OPTIONS="halt_on_error=1 abort_on_error=1 second_deadlock_stack=1"
# -O1 with line tables only (-g1): ThreadSanitizer's own advice, and half the CPU of the -O2 -g
# build (RelWithDebInfo) for a run as fast; CMAKE_BUILD_TYPE=None: only these flags (asserts kept)
cmake -S "$src" -B "$out" -DREBYTE_TSAN=ON -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="-O1 -g1" \
    -DREBYTE_SHARED="$shared" >/dev/null
cmake --build "$out" -j2 --target test_concurrent_reads >/dev/null
files=$(find "$src/samples" -type f ! -name '*.json' ! -name '*.md' | sort)
# One of each format, small enough for TSan yet with the structures that share state:
corpus_files="
gbx/3e855ff4_GBX-NET_2_CGameCtnChallenge_MP3_001.Map.Gbx
gbx/1f84bbea_Bench.Replay.Gbx
gbx/eaf2fb0e_GBX-NET_2_CGameItemModel_TM2020_001.Item.Gbx
tres/SlideTest.scn
tres/demo-130.pid
tres/pv.wtd
tres/Menu.tpa
datawin/TikTakToe_GM_Network_data.win
"
# gbx: a map (LZO body, blocks, lookback ids, vector tables), a replay (ghost samples, zlib
# stream), an item; tres: GROFF (name table, mesh tables), PID (entry table), WTD, TPA;
# data.win: a game with code (bytecode reference tables, occurrence chains). The streamer has no
# corpus: its samples are above.
if [ -d "$shared/corpus" ]; then
    for f in $corpus_files; do
        if [ -f "$shared/corpus/$f" ]; then files="$files $shared/corpus/$f"
        else echo "note: $shared/corpus/$f not found; skipped"; fi
    done
else
    echo "note: corpus not found at $shared/corpus (set REBYTE_SHARED); read the samples only"
fi
# shellcheck disable=SC2086 # one argument per file
"$out/tests/test_concurrent_reads" $files
