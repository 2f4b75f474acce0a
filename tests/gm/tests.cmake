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
