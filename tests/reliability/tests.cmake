# Reliability of the command line in scripts and shared folders (docs/reliability.md): inputs
# that never end bounded by their limits, in-place writes serialized, no temporary file left
# after a signal or a stale one kept, extract's target refused when not empty and its tar stream.
add_executable(test_bounded_inputs reliability/test_bounded_inputs.c)
add_test(NAME bounded_inputs COMMAND test_bounded_inputs $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
