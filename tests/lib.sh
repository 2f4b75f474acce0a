# What every shell test starts with; each sources it first, from its own folder:
#   . "$(dirname "$0")/../lib.sh"      (a test in tests/<folder>/)
#   . "$(dirname "$0")/lib.sh"         (a test at the top of tests/)
# ctest runs them as `sh /absolute/path/to/test.sh` (tests/CMakeLists.txt rebyte_add_script_test),
# so $0 finds this file from any working directory. It sets
#   rebyte  the binary under test: $REBYTE, else rebyte on the PATH
#   shared  the shared folder: $REBYTE_SHARED, else ../shared
#   src     the source tree (samples, fixtures): $REBYTE_SOURCE, else .
#   tmp     a scratch folder, removed when the test exits
#   fails   the failures counted by fail(); a test ends with `finish "what was checked"`
# and gives require_corpus FOLDER (sets corpus; skips, exit 77, when it is absent) and
# require_python (skips without python3). Exit 77 is ctest's SKIP_RETURN_CODE: a test whose
# prerequisite is missing is skipped, never passed (tests/README.md).
set -u
rebyte=${REBYTE:-rebyte}
shared=${REBYTE_SHARED:-../shared}
src=${REBYTE_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

require_corpus() {
    corpus="$shared/corpus/$1"
    [ -d "$corpus" ] || { echo "SKIP: no corpus at $corpus (set REBYTE_SHARED)"; exit 77; }
}

require_python() {
    command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
}

# The last command of a test: prints the summary and gives the exit status.
finish() {
    if [ "$fails" -eq 0 ]; then echo "$1: ok"; else echo "$1: $fails failure(s)"; exit 1; fi
}
