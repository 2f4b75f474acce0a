# GBX ghosts and replays (core/gbx/ghost/ghost.c, core/gbx/ghost/replay.c): the sample built from authored
# JSON (no corpus needed) and the corpus coverage / edit checks (skipped without the corpus).
rebyte_add_script_test(gbx_ghost_fixture gbx_ghost/fixture.sh)
rebyte_add_script_test(gbx_ghost_corpus gbx_ghost/corpus.sh)
# The ghost and replay chunks laid out from the corpus, in fixtures built from the samples.
rebyte_add_script_test(gbx_ghost_chunks gbx_ghost/chunks_fixture.sh)
# Ghost samples decoded into records and written back from them, through the library.
rebyte_add_test_program(test_ghost_samples gbx_ghost/test_ghost_samples.c)
target_link_libraries(test_ghost_samples PRIVATE m)
add_test(NAME gbx_ghost_samples COMMAND test_ghost_samples ${REBYTE_SHARED}/corpus/gbx)
set_tests_properties(gbx_ghost_samples PROPERTIES SKIP_RETURN_CODE 77)
# TM2020 entity records (CPlugEntRecordData) decoded by a script of its own and compared with the
# CSV that extract writes; the laws of a run (times increase, the car moves continuously).
if(PYTHON3)
  add_test(NAME gbx_ghost_entity_records COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx_ghost/entity_records.py
           $<TARGET_FILE:rebyte> ${REBYTE_SHARED}/corpus/gbx)
  set_tests_properties(gbx_ghost_entity_records PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
  # Records of versions 10 and 11 packed by the script itself (no corpus needed).
  add_test(NAME gbx_ghost_entity_fixture COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx_ghost/entity_fixture.py
           $<TARGET_FILE:rebyte>)
endif()
