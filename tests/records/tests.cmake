# No forged race record on any path (issue 29): the C API over the corpus's ghosts and replays,
# and the commands (convert, build, replace, apply) in records/forging.py.
add_executable(test_records_api records/test_records_api.c)
target_link_libraries(test_records_api PRIVATE rebyte_objects)
target_include_directories(test_records_api PRIVATE ${PROJECT_SOURCE_DIR})
add_test(NAME records_api COMMAND test_records_api ${REBYTE_SHARED}/corpus/gbx)
set_tests_properties(records_api PROPERTIES SKIP_RETURN_CODE 77 LABELS long)
if(PYTHON3)
  add_test(NAME records_forging COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/records/forging.py $<TARGET_FILE:rebyte>
           ${REBYTE_SHARED}/corpus/gbx)
  set_tests_properties(records_forging PROPERTIES SKIP_RETURN_CODE 77 LABELS long TIMEOUT 900)
endif()
if(PYTHON3)
  # apply's record proof, which spares the write's guard a second read of the original
  add_test(NAME records_apply_trace COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/records/apply_trace.py
           $<TARGET_FILE:rebyte> ${REBYTE_SHARED}/corpus/gbx/be63968b_Fall_2021_-_16.Map.Gbx)
  set_tests_properties(records_apply_trace PROPERTIES SKIP_RETURN_CODE 77 LABELS long)
endif()
