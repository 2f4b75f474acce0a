# No forged race recording on any path: the C API over the corpus's ghosts and replays,
# and the commands (convert, build, replace, apply) in recordings/forging.py.
rebyte_add_test_program(test_recordings_api recordings/test_recordings_api.c)
add_test(NAME recordings_api COMMAND test_recordings_api ${REBYTE_SHARED}/corpus/gbx)
set_tests_properties(recordings_api PROPERTIES SKIP_RETURN_CODE 77 LABELS long)
if(PYTHON3)
  add_test(NAME recordings_forging COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/recordings/forging.py $<TARGET_FILE:rebyte>
           ${REBYTE_SHARED}/corpus/gbx)
  set_tests_properties(recordings_forging PROPERTIES SKIP_RETURN_CODE 77 LABELS long TIMEOUT 900)
endif()
if(PYTHON3)
  # apply's recording proof, which spares the write's guard a second read of the original
  add_test(NAME recordings_apply_trace COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/recordings/apply_trace.py
           $<TARGET_FILE:rebyte> ${REBYTE_SHARED}/corpus/gbx/be63968b_Fall_2021_-_16.Map.Gbx)
  set_tests_properties(recordings_apply_trace PROPERTIES SKIP_RETURN_CODE 77 LABELS long)
endif()
