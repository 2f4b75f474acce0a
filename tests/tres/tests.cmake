# Trespasser formats (the corpus round trip is a corpus law, tests/engine/tests.cmake): the LZSS/SZDD
# codecs, SZDD-packed GROFF, GROFF edits checked by an independent GROFF checker, the samples.

rebyte_add_test_program(test_tres_lzss ${CMAKE_CURRENT_LIST_DIR}/test_lzss.c)
add_test(NAME tres_lzss COMMAND test_tres_lzss)
set_tests_properties(tres_lzss PROPERTIES ENVIRONMENT "REBYTE_SHARED=${REBYTE_SHARED}")

rebyte_add_test_program(test_tres_szdd ${CMAKE_CURRENT_LIST_DIR}/test_szdd.c)
add_test(NAME tres_szdd COMMAND test_tres_szdd ${PROJECT_SOURCE_DIR}/samples/tres/box.grf
         ${REBYTE_SHARED}/corpus/tres/demo.grf ${REBYTE_SHARED}/corpus/tres/demo.scn)

add_executable(tres_groff_check ${CMAKE_CURRENT_LIST_DIR}/groff_check.c)
rebyte_add_script_test(tres_edits tres/edit_tests.sh $<TARGET_FILE:tres_groff_check>)
rebyte_add_script_test(tres_scn_edits tres/scn_edit_test.sh $<TARGET_FILE:tres_groff_check>)
rebyte_add_script_test(tres_names_rules tres/rules_test.sh)
rebyte_add_script_test(tres_samples tres/sample_test.sh)

rebyte_add_test_program(test_tres_wtd ${CMAKE_CURRENT_LIST_DIR}/test_wtd.c)
add_test(NAME tres_wtd COMMAND test_tres_wtd ${PROJECT_SOURCE_DIR}/samples/tres)
set_tests_properties(tres_wtd PROPERTIES ENVIRONMENT "REBYTE_SHARED=${REBYTE_SHARED}")
rebyte_add_script_test(tres_wtd_edits tres/wtd_edits.sh)

# GROFF's deferred unit: its span and element count, its replay record against the stored
# reference counts, the deferred model's size, and read beside a document that has it, taken
# only when its bytes are unchanged (docs/formats/tres.md "The deferred model").
rebyte_add_test_program(test_groff_deferred ${CMAKE_CURRENT_LIST_DIR}/test_groff_deferred.c)
add_test(NAME tres_groff_deferred COMMAND test_groff_deferred ${PROJECT_SOURCE_DIR}/samples/tres
         --shared ${REBYTE_SHARED}/corpus/tres)
set_tests_properties(tres_groff_deferred PROPERTIES SKIP_RETURN_CODE 77)
rebyte_add_script_test(tres_sound_names tres/sound_names.sh)
rebyte_add_script_test(tres_audio_daemon tres/audio_daemon.sh)
# a texture edit in a swap image diffs to that texture's byte range ({"$splice"}), pinned by the
# bytes it replaces: it applies to another build with that texture and is refused by one without
rebyte_add_script_test(tres_texture_diff tres/texture_diff_test.sh)
