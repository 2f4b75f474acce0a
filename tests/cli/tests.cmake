# The command line's contract: help, usage, exit codes, stdin and stdout, clean streams, blobs as
# files, assets, and writing outputs and backups: the writer's strategy by file type,
# scans skipping backups and temporary files (C); every writing command onto a FIFO and through a
# symlink, two --backup runs, a batch killed mid-way, a failing write (shell).
rebyte_add_script_test(cli_basics cli/cli_basics.sh)
rebyte_add_script_test(cli_habits cli/cli_habits.sh)
rebyte_add_script_test(dump_blobs_files cli/dump_files.sh)
set_tests_properties(dump_blobs_files PROPERTIES TIMEOUT 900)
rebyte_add_script_test(assets cli/assets.sh)
if(PYTHON3)
  # -o - gives the file's bytes alone, equal to -o FILE; --print-patch is JSON
  add_test(NAME clean_streams COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/cli/clean_streams.py $<TARGET_FILE:rebyte>
           ${PROJECT_SOURCE_DIR})
endif()
rebyte_add_unit_test(test_write_strategy cli/test_write_strategy.c ${PROJECT_SOURCE_DIR}/patch/cli/cli_util.c
                     ${PROJECT_SOURCE_DIR}/patch/cli/cli_guard.c)
rebyte_add_script_test(write_targets cli/write_targets.sh)
set_tests_properties(write_targets PROPERTIES TIMEOUT 300)
# The fault-injecting write is an LD_PRELOAD library, which a sanitizer runtime refuses.
if(NOT REBYTE_SANITIZE)
  add_library(fault_write SHARED cli/fault_write.c)
  target_link_libraries(fault_write PRIVATE dl)
  rebyte_add_script_test(safe_write cli/safe_write.sh $<TARGET_FILE:fault_write>)
endif()
rebyte_add_script_test(cli_build_units cli/build_units.sh)
rebyte_add_script_test(cli_build_units_corpus cli/build_units.sh corpus)
set_tests_properties(cli_build_units_corpus PROPERTIES LABELS long SKIP_RETURN_CODE 77)
# apply -o DIR/ (12 inputs, folders, clashes refused), report lines naming their file, "N changes"
# counting what changed, every command's stdout checked (/dev/full), folders as inputs (issues 37, 38)
rebyte_add_script_test(batch_outputs cli/batch_outputs.sh)
