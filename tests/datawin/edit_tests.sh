#!/bin/sh
# Runs the data.win edit tests (edit_tests.py explains what they check).
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
exec python3 "${REBYTE_SOURCE:-.}/tests/datawin/edit_tests.py"
