# Reliability of the command line in scripts and shared folders (docs/reliability.md): inputs
# that never end bounded by their limits, in-place writes serialized, no temporary file left
# after a signal or a stale one kept, extract's target refused when not empty and its tar stream.
add_executable(test_bounded_inputs reliability/test_bounded_inputs.c)
target_include_directories(test_bounded_inputs PRIVATE ${PROJECT_SOURCE_DIR})
add_test(NAME bounded_inputs COMMAND test_bounded_inputs $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
# Concurrent in-place writes, signals during a write held part-way (an LD_PRELOAD shim, which a
# sanitizer runtime refuses), a file size limit, an input changed before the rename.
if(PYTHON3 AND NOT REBYTE_SANITIZE)
  add_library(pause_write SHARED reliability/pause_write.c)
  target_link_libraries(pause_write PRIVATE dl)
  add_test(NAME write_safety COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/reliability/write_safety.py
           $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR} $<TARGET_FILE:pause_write> ${REBYTE_SHARED})
  set_tests_properties(write_safety PROPERTIES TIMEOUT 600)
endif()
# The tar stream of extract -o -, read back by the system's tar.
rebyte_add_unit_test(test_tar reliability/test_tar.c ${PROJECT_SOURCE_DIR}/patch/cli/cli_tar.c
                     ${PROJECT_SOURCE_DIR}/patch/cli/cli_util.c ${PROJECT_SOURCE_DIR}/patch/cli/cli_guard.c)
set_tests_properties(test_tar PROPERTIES SKIP_RETURN_CODE 77)
# extract's target: refused when not empty (--force), a tar stream with -o -, nothing left after a
# failed extraction (the fault-injecting write of tests/cli, where it is built).
if(TARGET fault_write)
  rebyte_add_script_test(extract_target reliability/extract_target.sh $<TARGET_FILE:fault_write>)
else()
  rebyte_add_script_test(extract_target reliability/extract_target.sh)
endif()
