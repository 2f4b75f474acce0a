#!/bin/sh
# The diff of two DIFFERENT maps (docs/usage.md "Diffs"): 16 pairs of
# different corpus maps of one game era, drawn with a fixed seed (diff_map_pairs.py). Each pair
# must give a patch that turns A into B's bytes, or be refused with a named reason; never
# "internal", never a patch whose result has other bytes than B. Found 2026-12-08: of 16 such
# pairs 8 gave B's model in other bytes (B's compressed body written by another encoder than
# rebyte's, the patch silently wrong) and 7 failed as "internal".
. "$(dirname "$0")/../lib.sh"
require_corpus gbx
require_python
python3 "$(dirname "$0")/diff_map_pairs.py" "$rebyte" "$corpus" --pairs 16 --seed 40 || fail "a pair of maps diffs wrongly"
finish "diff of 16 pairs of different maps"
