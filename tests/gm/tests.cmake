# GameMaker data.win: corpus round trip (rewrite, dump/build, verify --reencode), the edit tests
# (strings, textures, audio) on every corpus file, and the sample built from JSON.
rebyte_add_script_test(datawin_corpus_roundtrip corpus_roundtrip.sh datawin)
rebyte_add_script_test(datawin_edits gm/edit_tests.sh)
rebyte_add_script_test(datawin_sample gm/sample_test.sh)
rebyte_add_script_test(datawin_room gm/room_test.sh)
rebyte_add_script_test(datawin_sprt gm/sprt_test.sh)
rebyte_add_script_test(datawin_code gm/code_test.sh)
rebyte_add_script_test(datawin_misc gm/misc_test.sh)
rebyte_add_script_test(datawin_objt gm/objt_test.sh)
rebyte_add_script_test(datawin_code2 gm/code2_test.sh)
rebyte_add_script_test(datawin_code3 gm/code3_test.sh)
rebyte_add_script_test(datawin_uilr gm/uilr_test.sh)
rebyte_add_script_test(datawin_strg_derive gm/strg_derive_test.sh)
rebyte_add_script_test(datawin_strg_follow gm/strg_follow_test.sh)
# Assets (extract and replace through the format's hooks): the QOI variant and bzip2 on made
# pictures, then every corpus file (else the sample) with an independent check of what comes out.
add_executable(test_gm_assets gm/test_assets.c)
target_link_libraries(test_gm_assets PRIVATE rebyte_objects)
target_include_directories(test_gm_assets PRIVATE ${PROJECT_SOURCE_DIR})
add_test(NAME datawin_assets_codecs COMMAND test_gm_assets)
rebyte_add_script_test(datawin_assets gm/assets_test.sh $<TARGET_FILE:test_gm_assets>)
set_tests_properties(datawin_assets PROPERTIES TIMEOUT 600)
