# No forged race record on any path: the C API over the corpus's ghosts and replays,
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
