# The SA:MP streamer map format: fixtures built from JSON, the readings of the spec's
# ambiguities, validation errors, mutations (test_streamer); the samples through the CLI.
rebyte_add_test_program(test_streamer streamer/test_streamer.c)
add_test(NAME streamer COMMAND test_streamer ${CMAKE_CURRENT_SOURCE_DIR}/streamer/fixtures)

rebyte_add_script_test(streamer_samples streamer/samples.sh)
if(PYTHON3)
  # a CSV of the extracted objects put back (docs/formats/streamer.md)
  add_test(NAME streamer_csv_putback COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/streamer/csv_putback.py
           $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR})
endif()
