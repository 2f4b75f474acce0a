# What every data.win shell test (tests/datawin/*_test.sh) starts with, on top of tests/lib.sh;
# each sources it first:
#   . "$(dirname "$0")/common.sh"
# (ctest runs them as `sh /absolute/path/tests/datawin/NAME_test.sh`, so $0 finds this file from any
# working directory.) It sets
#   rebyte  the binary under test: $REBYTE, else rebyte on the PATH
#   shared  the shared folder: $REBYTE_SHARED, else ../shared; corpus = its data.win files
#   src     the source tree (samples, fixtures): $REBYTE_SOURCE, else .
#   tmp     a scratch folder, removed when the test exits
#   fails   the failures counted by fail(); the test's last command turns it into the exit status
#   PYTHONPATH  includes tests/datawin, so inline python can `from datawin_bytes import ...`
# A test needs python3 (patches and model comparisons are written in it): without it the test is
# skipped, exit 77 being ctest's SKIP_RETURN_CODE. Tests that need the corpus call require_corpus.
. "$(dirname "$0")/../lib.sh"
corpus="$shared/corpus/datawin"
require_python
# the tests' own reading of data.win bytes (datawin_bytes.py) for their inline python
PYTHONPATH="$(dirname "$0")${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

# A patch that must be refused: `apply` fails, says something containing the expected text, and
# writes nothing. Arguments: what is tested (for the failure line), patch, input, expected text.
expect_refused() {
    if "$rebyte" apply -q "$2" "$3" -o "$tmp/refused.out" 2>"$tmp/refused.err"; then
        fail "$1: accepted"
    fi
    grep -qF -- "$4" "$tmp/refused.err" || fail "$1: message: $(cat "$tmp/refused.err")"
    [ ! -e "$tmp/refused.out" ] || fail "$1: output written for a refused patch"
    rm -f "$tmp/refused.out"
}

# A file built from a JSON model (a fixture): it must build, verify exactly and come back from
# dump -> build byte for byte. Leaves $tmp/NAME.win and its dump $tmp/NAME.json. Arguments: the
# model, NAME. Returns non-zero when it does not build (the failure is counted).
built_fixture() {
    "$rebyte" build "$1" -o "$tmp/$2.win" || { fail "$2: does not build from $1"; return 1; }
    "$rebyte" verify -q "$tmp/$2.win" >/dev/null || fail "$2: the built file does not verify"
    "$rebyte" dump "$tmp/$2.win" -o "$tmp/$2.json" || fail "$2: dump"
    "$rebyte" build "$tmp/$2.json" -o "$tmp/$2.again.win" && cmp -s "$tmp/$2.win" "$tmp/$2.again.win" ||
        fail "$2: dump -> build is not exact"
}

# A patch applied to a file: the output must verify exactly; it is left as $tmp/NAME.win and its
# dump $tmp/NAME.json. Arguments: the patch, the input, NAME.
patched_file() {
    "$rebyte" apply -q "$1" "$2" -o "$tmp/$3.win" || { fail "$3: apply"; return 1; }
    "$rebyte" verify -q "$tmp/$3.win" >/dev/null || fail "$3: the edited file does not verify"
    "$rebyte" dump "$tmp/$3.win" -o "$tmp/$3.json" || fail "$3: dump of the edit"
}

# Skips the test when the corpus (not kept in the project) is absent.
require_corpus() {
    ls "$corpus"/*.win >/dev/null 2>&1 || { echo "SKIP: no data.win corpus (*.win) found in $corpus"; exit 77; }
}
