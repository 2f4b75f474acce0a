# GBX ghosts and replays (core/gbx/record/ghost.c, core/gbx/record/replay.c): the sample built from authored
# JSON (no corpus needed) and the corpus coverage / edit checks (skipped without the corpus).
rebyte_add_script_test(gbx_ghost_fixture gbx_ghost/fixture.sh)
rebyte_add_script_test(gbx_ghost_corpus gbx_ghost/corpus.sh)
