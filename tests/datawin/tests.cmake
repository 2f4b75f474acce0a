# GameMaker data.win (the corpus round trip is a corpus law, tests/engine/tests.cmake): the edit
# tests (strings, textures, audio) on every corpus file, and the sample built from JSON.
rebyte_add_script_test(datawin_edits datawin/edit_tests.sh)
rebyte_add_script_test(datawin_sample datawin/sample_test.sh)
rebyte_add_script_test(datawin_room datawin/room_test.sh)
rebyte_add_script_test(datawin_sprt datawin/sprt_test.sh)
rebyte_add_script_test(datawin_code datawin/code_test.sh)
rebyte_add_script_test(datawin_misc datawin/misc_test.sh)
rebyte_add_script_test(datawin_objt datawin/objt_test.sh)
rebyte_add_script_test(datawin_code2 datawin/code2_test.sh)
rebyte_add_script_test(datawin_code3 datawin/code3_test.sh)
rebyte_add_script_test(datawin_uilr datawin/uilr_test.sh)
rebyte_add_script_test(datawin_strg_derive datawin/strg_derive_test.sh)
rebyte_add_script_test(datawin_strg_follow datawin/strg_follow_test.sh)
# Assets (extract and replace through the format's hooks): the QOI variant and bzip2 on made
# pictures, then every corpus file (else the sample) with an independent check of what comes out.
rebyte_add_test_program(test_datawin_assets datawin/test_assets.c)
add_test(NAME datawin_assets_codecs COMMAND test_datawin_assets)
rebyte_add_script_test(datawin_assets datawin/assets_test.sh $<TARGET_FILE:test_datawin_assets>)
set_tests_properties(datawin_assets PROPERTIES TIMEOUT 600)
# The deferred model's replays (core/datawin/datawin_defer.c): every chunk a deferred read keeps
# as its bytes, written among nodes and as nodes among bytes, gives the full read's bytes.
rebyte_add_test_program(test_datawin_units datawin/test_datawin_units.c)
add_test(NAME datawin_units_samples COMMAND test_datawin_units ${PROJECT_SOURCE_DIR}/samples/datawin)
if(EXISTS ${REBYTE_SHARED}/corpus/datawin)
  add_test(NAME datawin_units_corpus COMMAND test_datawin_units ${REBYTE_SHARED}/corpus/datawin)
endif()
# The code listing read back (docs/formats/datawin.md "Code listings"): every root entry's listing
# gives back its model exactly, over the corpus and the public test world (long: thousands of entries).
rebyte_add_test_program(test_datawin_asm datawin/test_datawin_asm.c)
if(EXISTS ${REBYTE_SHARED}/corpus/datawin)
  add_test(NAME datawin_asm_law COMMAND test_datawin_asm ${REBYTE_SHARED}/corpus/datawin ${REBYTE_SHARED}/public/datawin)
endif()
rebyte_add_script_test(datawin_asm datawin/asm_test.sh)
rebyte_add_script_test(datawin_asm_fixture datawin/asm_fixture_test.sh)
# a one-frame sprite edit diffs to that frame as a PNG ({"$png"}), at most 4x its size, applies
# to another build with that sprite and is refused by one without (the sample; the corpus and
# the public data.win under `long`)
rebyte_add_script_test(datawin_picture_diff datawin/picture_diff_test.sh sample)
rebyte_add_script_test(datawin_picture_diff_corpus datawin/picture_diff_test.sh corpus)
rebyte_add_script_test(datawin_picture_diff_public datawin/picture_diff_test.sh public)
set_tests_properties(datawin_picture_diff_corpus datawin_picture_diff_public PROPERTIES LABELS long TIMEOUT 3600)
